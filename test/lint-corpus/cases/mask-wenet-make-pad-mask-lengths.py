# case: mask-wenet-make-pad-mask-lengths
# modelled-on: wenet-e2e/wenet https://github.com/wenet-e2e/wenet/issues/2012
# label: correct
# pattern: the padding mask comes from lengths through a helper (positions >= length marks padding), is negated into a keep mask for the encoder, and turned back into an ignore mask with eq(0) inside the attention before a -inf fill
# why: the reporter proposed `<` for make_pad_mask; the helper is meant to return the padded part (its docstring says so) and the encoder negates it, so the chain keeps real frames and fills only padding; rows always keep at least the first frame because every length is positive
# looks-like: ATT002, ATT007
import math

import torch
from torch import nn


def make_pad_mask(lengths: torch.Tensor, max_len: int = 0) -> torch.Tensor:
    """Mask of the padded part: True at positions past each sequence's length. lengths: (B,)."""
    batch_size = lengths.size(0)
    max_len = max_len if max_len > 0 else int(lengths.max().item())
    seq_range = torch.arange(0, max_len, dtype=torch.int64, device=lengths.device)
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    seq_length_expand = lengths.unsqueeze(-1)
    return seq_range_expand >= seq_length_expand


class FrameSelfAttention(nn.Module):
    def __init__(self, n_feat: int, n_head: int):
        super().__init__()
        self.d_k = n_feat // n_head
        self.h = n_head
        self.linear_q = nn.Linear(n_feat, n_feat)
        self.linear_k = nn.Linear(n_feat, n_feat)
        self.linear_v = nn.Linear(n_feat, n_feat)
        self.linear_out = nn.Linear(n_feat, n_feat)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # x: (B, T, n_feat); mask: (B, 1, T), True at real frames
        n_batch = x.size(0)
        q = self.linear_q(x).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        k = self.linear_k(x).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        v = self.linear_v(x).view(n_batch, -1, self.h, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)  # (B, H, T, T)
        ignore = mask.unsqueeze(1).eq(0)  # (B, 1, 1, T)
        scores = scores.masked_fill(ignore, -float("inf"))
        attn = torch.softmax(scores, dim=-1).masked_fill(ignore, 0.0)
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(n_batch, -1, self.h * self.d_k)
        return self.linear_out(out)


class FrameEncoder(nn.Module):
    def __init__(self, n_feat: int = 256, n_head: int = 4):
        super().__init__()
        self.attn = FrameSelfAttention(n_feat, n_head)

    def forward(self, xs: torch.Tensor, xs_lens: torch.Tensor) -> torch.Tensor:
        T = xs.size(1)
        masks = ~make_pad_mask(xs_lens, T).unsqueeze(1)  # (B, 1, T), True at real frames
        return self.attn(xs, masks)
