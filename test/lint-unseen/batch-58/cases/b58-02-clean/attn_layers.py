import math
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


def dot_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                  scaled: bool = False, mask: Optional[torch.Tensor] = None):
    """softmax(q k^T [/ sqrt(d)]) v over the last (key) axis; mask: 0 = hidden."""
    divisor = math.sqrt(q.shape[-1] if scaled else 1)
    logits = torch.matmul(q, k.transpose(-1, -2)) / divisor
    if mask is not None:
        logits = logits.masked_fill(mask == 0, -1e9)
    probs = F.softmax(logits, dim=-1)
    return torch.matmul(probs, v), probs


class GlimpseAttention(nn.Module):
    """Single-head attention of a decoder state over image regions (Luong-style dot score)."""

    def __init__(self, state_size: int, region_size: int, out_size: int, inner: int = 512):
        super().__init__()
        self.proj_q = nn.Linear(state_size, inner, bias=False)
        self.proj_k = nn.Linear(region_size, inner, bias=False)
        self.proj_v = nn.Linear(region_size, inner, bias=False)
        self.proj_out = nn.Linear(inner, out_size)

    def forward(self, state: torch.Tensor, regions: torch.Tensor, mask: Optional[torch.Tensor] = None):
        q, k, v = self.proj_q(state), self.proj_k(regions), self.proj_v(regions)
        ctx, probs = dot_attention(q, k, v, mask=mask)
        return self.proj_out(ctx), probs


class HeadsAttention(nn.Module):
    def __init__(self, width: int, n_heads: int):
        super().__init__()
        assert width % n_heads == 0, "width must be divisible by n_heads"
        self.n_heads, self.width, self.d_k = n_heads, width, width // n_heads
        self.proj_q = nn.Linear(width, width, bias=False)
        self.proj_k = nn.Linear(width, width, bias=False)
        self.proj_v = nn.Linear(width, width, bias=False)
        self.proj_out = nn.Linear(width, width)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
        q, k, v = self._split(self.proj_q(x)), self._split(self.proj_k(x)), self._split(self.proj_v(x))
        if mask is not None:
            mask = mask.unsqueeze(1)  # broadcast over heads
        ctx, probs = dot_attention(q, k, v, scaled=True, mask=mask)
        ctx = ctx.transpose(1, 2).reshape(x.size(0), -1, self.width)
        return self.proj_out(ctx), probs
