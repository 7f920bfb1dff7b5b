# case: b17-01-softmax
# modelled-on: JohnGiorgi/compact-multi-head-self-attention-pytorch https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch/commit/d71eec35361c03433a8dc2763fd7bb5f49b46499
# label: buggy
# class: real-bug
# pattern: a low-rank factorised multi-head self-attention (LAMA) module in one file computes (batch, heads, seq) similarities and softmaxes them over the last axis; a thin pooler subclass in another file reuses the parent's score method, masks padding with masked_fill(mask == 0, -1e9) and softmaxes the same (batch, heads, seq) tensor with F.softmax(..., dim=0) before pooling the inputs with the weights into a (batch, heads * dim) sentence embedding
# why: buggy: dim=0 is the batch axis of the (batch, heads, seq) similarities, so each weight is normalised across the sentences of the batch instead of over the tokens of its own sentence (with batch size 1 every weight is exactly 1.0); the docstring says the weights are a distribution for each head, the parent class uses dim=-1, and the author's refactor that merged the pooler into the parent ("Refactor to one module, pool is optional") normalises over the last axis
# source: https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch https://github.com/JohnGiorgi/compact-multi-head-self-attention-pytorch/commit/d71eec35361c03433a8dc2763fd7bb5f49b46499 modules/lama_pooler.py
from typing import Callable, Optional

import torch
import torch.nn.functional as F

from pooling.lowrank import LowRankHeads


class LowRankPooler(LowRankHeads):
    """Applies LowRankHeads and returns the flattened structured sentence embedding.

    inputs: (batch, seq, dim); mask: (batch, seq), 1 for real tokens and 0 for padding.
    Output: (batch, heads * dim).
    """

    def __init__(self, heads: int, dim: int, act: Optional[Callable] = torch.tanh, normalise: bool = True):
        super().__init__(heads, dim, act, normalise)

    def forward(self, inputs: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        sims = self.scores(inputs)
        if self.normalise:
            if mask is not None:
                # the heads axis broadcasts
                sims = sims.masked_fill(mask.unsqueeze(1) == 0, -1e9)
            sims = F.softmax(sims, dim=0)  # expect: ATT001
        pooled = sims @ inputs
        return pooled.view(inputs.size(0), -1)
