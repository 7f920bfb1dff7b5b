# case: mask-lengths-valid-as-key-padding
# modelled-on: wenet-e2e/wenet https://github.com/wenet-e2e/wenet/issues/2012
# label: buggy
# pattern: the reporter's proposed comparison (positions < length, True at real frames) kept under the helper's name and docstring, whose result goes straight to nn.MultiheadAttention's key_padding_mask
# why: the helper's own docstring (and the maintainers' reading in the issue) says it returns the padded part; with `<` it returns the real frames, and key_padding_mask then hides every real frame and attends only to padding
import torch
from torch import nn


def make_pad_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
    """Mask of the padded part: True at positions past each sequence's length. lengths: (B,)."""
    seq_range = torch.arange(0, max_len, dtype=torch.int64, device=lengths.device)
    return seq_range.unsqueeze(0) < lengths.unsqueeze(-1)


class FrameEncoderLayer(nn.Module):
    def __init__(self, n_feat: int = 256, n_head: int = 4):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(n_feat, n_head, batch_first=True)
        self.norm = nn.LayerNorm(n_feat)

    def forward(self, xs: torch.Tensor, xs_lens: torch.Tensor) -> torch.Tensor:
        # xs: (B, T, n_feat)
        pad = make_pad_mask(xs_lens, xs.size(1))
        out, _ = self.self_attn(xs, xs, xs, key_padding_mask=pad)  # expect: ATT002
        return self.norm(xs + out)
