from typing import Callable, Optional

import torch
import torch.nn.functional as F
from torch import nn


class LowRankHeads(nn.Module):
    """Low-rank factorised multi-head self-attention over a sequence.

    inputs: (batch, seq, dim); mask: (batch, seq), 1 for real tokens and 0 for padding.
    Returns attention weights of shape (batch, heads, seq).
    """

    def __init__(self, heads: int, dim: int, act: Optional[Callable] = torch.tanh, normalise: bool = True):
        super().__init__()
        self.act = (lambda t: t) if act is None else act
        self.normalise = normalise
        self.p = nn.Parameter(torch.empty(dim, heads))
        self.q = nn.Parameter(torch.empty(dim, heads))
        self.ctx = nn.Parameter(torch.empty(dim, 1))
        nn.init.xavier_uniform_(self.p)
        nn.init.xavier_uniform_(self.q)
        nn.init.xavier_uniform_(self.ctx)

    def scores(self, inputs: torch.Tensor) -> torch.Tensor:
        # (heads, dim) @ (batch, dim, seq) -> (batch, heads, seq)
        qh = self.q.t() @ inputs.transpose(1, 2)
        # (heads, dim) @ (dim, seq) -> (heads, seq), broadcast over the batch
        pc = self.p.t() @ self.ctx.expand(-1, inputs.size(1))
        return self.act(pc * qh)

    def forward(self, inputs: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        sims = self.scores(inputs)
        if not self.normalise:
            return sims
        if mask is not None:
            # the heads axis broadcasts
            sims = sims.masked_fill(mask.unsqueeze(1) == 0, -1e9)
        return F.softmax(sims, dim=-1)
