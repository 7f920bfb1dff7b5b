# case: b17-02-softmax
# modelled-on: JohnGiorgi/compact-multi-head-self-attention-pytorch https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch/commit/1351fb21b71462c84f113a48738c96e12be786c7
# label: correct
# class: fixed
# pattern: the same low-rank factorised multi-head self-attention after the refactor that folded the pooler into the module: the global context is the masked mean of the inputs, the (batch, heads, seq) alignment is L2-normalised over the heads axis with torch.norm(..., dim=1, keepdim=True), padding is filled with -1e9 where the keep mask is 0, the softmax runs over the last axis and, when pooling, the weights multiply the inputs into a (batch, heads * dim) embedding; a sentence encoder in another file calls it with pool=True
# why: correct: the softmax is over the tokens of each sentence (last axis of (batch, heads, seq)); the norm over dim=1 is an L2 normalisation across heads that the paper's Eq. 3.13 asks for, not a softmax; the keep mask (1 = token) is filled where it equals 0; there is no scaled dot product here (the similarity is an elementwise product of two projections), so no 1/sqrt(d) is expected
# looks-like: ATT001, ATT003, ATT007
# source: https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch/commit/1351fb21b71462c84f113a48738c96e12be786c7 modules/lama.py
import math
from typing import Callable, Optional

import torch
import torch.nn.functional as F
from torch import nn


class LowRankHeads(nn.Module):
    """inputs: (batch, seq, dim); mask: (batch, seq), 1 for tokens, 0 for padding.

    Returns (batch, heads, seq) weights, or (batch, heads * dim) when pool=True.
    """

    def __init__(self, heads: int, dim: int, act: Optional[Callable] = torch.tanh, normalise: bool = True):
        super().__init__()
        self.act = (lambda t: t) if act is None else act
        self.normalise = normalise
        self.p = nn.Parameter(torch.empty(dim, heads))
        self.q = nn.Parameter(torch.empty(dim, heads))
        nn.init.kaiming_uniform_(self.p, a=math.sqrt(5))
        nn.init.kaiming_uniform_(self.q, a=math.sqrt(5))

    def scores(self, inputs: torch.Tensor, mask: Optional[torch.Tensor]) -> torch.Tensor:
        if mask is not None:
            ctx = torch.sum(inputs * mask.unsqueeze(-1), dim=1) / torch.clamp(
                torch.sum(mask, dim=1, keepdim=True), min=1e-9
            )
        else:
            ctx = torch.mean(inputs, dim=1)
        qh = self.q.t() @ inputs.transpose(1, 2)  # (batch, heads, seq)
        pc = self.p.t() @ ctx.unsqueeze(-1)  # (batch, heads, 1)
        align = self.act(pc * qh)
        align = align / torch.norm(align, dim=1, keepdim=True)
        return align

    def forward(self, inputs: torch.Tensor, mask: Optional[torch.Tensor] = None, pool: bool = False) -> torch.Tensor:
        sims = self.scores(inputs, mask)
        if self.normalise:
            if mask is not None:
                sims = sims.masked_fill(mask.unsqueeze(1) == 0, -1e9)
            sims = F.softmax(sims, dim=-1)
        if pool:
            pooled = sims @ inputs
            return pooled.view(inputs.size(0), -1)
        return sims
