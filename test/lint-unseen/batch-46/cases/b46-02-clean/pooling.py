# case: b46-02-clean
# modelled-on: xxsmario/pytorch-multihead-selfattention https://github.com/xxsmario/pytorch-multihead-selfattention/commit/043c90a641352fa7aa8e0591abd6b3eabea9fa55
# label: correct
# class: clean
# pattern: low-rank factorised multi-head attention pooling (LAMA) (a folder: the module that scores the positions per head and the encoder that pools with it): alignments of shape (batch, heads, length) come from a context gate times a projection, are l2-normalised across the heads, filled with -1e9 where the (batch, length) keep mask is 0 (broadcast over the heads with unsqueeze(1)) and normalised with softmax(dim=-1) over the positions; the encoder multiplies the (batch, heads, length) weights with the (batch, length, dim) inputs and optionally flattens and projects the heads
# why: correct: the keep mask is 1 at real tokens, so masked_fill(keep == 0, -1e9) hides the padding; the positions are the last axis of the alignments, so softmax(dim=-1) gives each head a distribution over the sequence (the l2 normalisation over dim=1 runs across the heads and is part of the method, not the attention normaliser); the alignments are tanh-bounded dot products of a low-rank projection, with no 1/sqrt(d) in the paper or the code; -1e9 is applied in float32
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/xxsmario/pytorch-multihead-selfattention https://github.com/xxsmario/pytorch-multihead-selfattention/commit/043c90a641352fa7aa8e0591abd6b3eabea9fa55 modules/lama.py
from typing import Callable, Optional

import torch
from torch import nn

from low_rank import LowRankHeads


class LowRankPoolingEncoder(nn.Module):
    """Turns (B, L, D) token features into (B, heads, D) or a projected (B, out_dim) vector."""

    def __init__(self, heads: int, dim: int, act: Callable = torch.tanh, out_dim: Optional[int] = None):
        super().__init__()
        self.scorer = LowRankHeads(heads, dim, act, normalise=True)
        self.out = nn.Linear(heads * dim, out_dim) if out_dim else None

    def forward(self, x: torch.Tensor, keep: Optional[torch.Tensor] = None) -> torch.Tensor:
        weights = self.scorer(x, keep)  # (B, heads, L)
        pooled = weights @ x            # (B, heads, D)
        if self.out is None:
            return pooled
        return self.out(pooled.reshape(x.size(0), -1))


def pad_batch(seqs, dim: int):
    """Stacks variable-length (L_i, D) tensors and returns them with their keep mask."""
    longest = max(s.size(0) for s in seqs)
    feats = torch.zeros(len(seqs), longest, dim)
    keep = torch.zeros(len(seqs), longest)
    for i, s in enumerate(seqs):
        feats[i, : s.size(0)] = s
        keep[i, : s.size(0)] = 1.0
    return feats, keep
