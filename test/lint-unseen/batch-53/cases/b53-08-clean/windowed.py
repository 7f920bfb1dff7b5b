# case: b53-08-clean
# modelled-on: Alice-52/Transformer_Attention_Comparison https://github.com/Alice-52/Transformer_Attention_Comparison/commit/37f13bd7543442ad1110f3226452bc660c6c1c52
# label: correct
# class: clean
# pattern: a news-headline classifier comparing attention variants (a folder: the collate function that builds a boolean attention_mask, True on real tokens, and the attention module whose windowed variant ANDs a band of |i - j| <= w with the key and query masks before filling ~mask with -inf, then zeroes the NaN rows of all-padding queries)
# why: correct: the collate mask is True = real token, and the attention fills the positions where the mask is False (masked_fill(~mask, -inf)), so the polarity matches; the windowed mask keeps a query's band of real keys, and a padded query row (all False) becomes NaN after the softmax and is set to 0 by nan_to_num, which only touches rows that attend to nothing (the classifier pools over real tokens only); the scores are divided by sqrt of the per-head width and the softmax is over the key axis
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/Alice-52/Transformer_Attention_Comparison https://github.com/Alice-52/Transformer_Attention_Comparison/commit/37f13bd7543442ad1110f3226452bc660c6c1c52 src/attention.py
from typing import Optional

import torch
from torch import nn


def masked_attention(q, k, v, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
    """q, k, v: [B, H, L, d]; keep: [B, L] or [B, L, L] or [B, 1, L, L], True where attention is allowed."""
    logits = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    if keep is not None:
        if keep.dim() == 2:
            keep = keep[:, None, None, :]
        elif keep.dim() == 3:
            keep = keep[:, None]
        logits = logits.masked_fill(~keep, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    probs = torch.nan_to_num(probs, nan=0.0)  # rows of padded queries had nothing to attend to
    return probs @ v


class HeadsAttention(nn.Module):
    def __init__(self, width: int, n_heads: int, p: float = 0.1):
        super().__init__()
        assert width % n_heads == 0
        self.n_heads, self.hd = n_heads, width // n_heads
        self.q, self.k, self.v, self.o = (nn.Linear(width, width) for _ in range(4))
        self.drop = nn.Dropout(p)

    def heads(self, t: torch.Tensor) -> torch.Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.n_heads, self.hd).permute(0, 2, 1, 3)

    def forward(self, x: torch.Tensor, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
        ctx = masked_attention(self.heads(self.q(x)), self.heads(self.k(x)), self.heads(self.v(x)), keep)
        b, h, n, d = ctx.shape
        ctx = ctx.permute(0, 2, 1, 3).reshape(b, n, h * d)
        return self.o(self.drop(ctx))


class WindowedAttention(HeadsAttention):
    def __init__(self, width: int, n_heads: int, radius: int, p: float = 0.1):
        super().__init__(width, n_heads, p)
        self.radius = radius

    def band_and_padding(self, real: torch.Tensor) -> torch.Tensor:
        b, n = real.shape
        pos = torch.arange(n, device=real.device)
        near = (pos[None, :] - pos[:, None]).abs() <= self.radius
        near = near[None, None].expand(b, 1, n, n)
        key_real = real[:, None, None, :].expand(b, 1, n, n)
        query_real = real[:, None, :, None].expand(b, 1, n, n)
        return near & key_real & query_real

    def forward(self, x: torch.Tensor, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
        if keep is None:
            raise ValueError("the windowed variant needs the padding mask")
        return super().forward(x, self.band_and_padding(keep))
