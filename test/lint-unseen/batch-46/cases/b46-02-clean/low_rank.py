"""Low-rank factorised multi-head attention pooling (LAMA, Mehta et al. 2019)."""

import math
from typing import Callable, Optional

import torch
from torch import nn
from torch.nn import functional as F


class LowRankHeads(nn.Module):
    """Scores every position of (B, L, D) inputs once per head.

    `keep` is (B, L) with 1 at real tokens and 0 at padding. The result is
    (B, heads, L): one distribution over the positions for each head when
    `normalise` is set, raw alignments otherwise.
    """

    def __init__(self, heads: int, dim: int, act: Optional[Callable] = torch.tanh, normalise: bool = True):
        super().__init__()
        self.act = act if act is not None else (lambda t: t)
        self.normalise = normalise
        self.P = nn.Parameter(torch.empty(dim, heads))
        self.Q = nn.Parameter(torch.empty(dim, heads))
        for w in (self.P, self.Q):
            nn.init.kaiming_uniform_(w, a=math.sqrt(5))

    def _context(self, x: torch.Tensor, keep: Optional[torch.Tensor]) -> torch.Tensor:
        if keep is None:
            return x.mean(dim=1)
        summed = (x * keep.unsqueeze(-1)).sum(dim=1)
        count = keep.sum(dim=1, keepdim=True).clamp(min=1e-9)
        return summed / count

    def alignments(self, x: torch.Tensor, keep: Optional[torch.Tensor]) -> torch.Tensor:
        ctx = self._context(x, keep)                  # (B, D)
        gate = self.P.t() @ ctx.unsqueeze(-1)         # (B, heads, 1)
        proj = self.Q.t() @ x.transpose(1, 2)         # (B, heads, L)
        a = self.act(gate * proj)
        return a / torch.norm(a, dim=1, keepdim=True)  # unit length across the heads

    def forward(self, x: torch.Tensor, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
        sims = self.alignments(x, keep)
        if not self.normalise:
            return sims
        if keep is not None:
            sims = sims.masked_fill(keep.unsqueeze(1) == 0, -1e9)  # same mask for every head
        return F.softmax(sims, dim=-1)
