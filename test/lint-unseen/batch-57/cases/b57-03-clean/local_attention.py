# case: b57-03-clean
# modelled-on: sshaoshuai/MTR https://github.com/sshaoshuai/MTR/commit/99afddb0d2e1b1e0b7fd42e7fdd7944312cb6dc8
# label: correct
# class: clean
# pattern: the local (k-nearest-neighbour) self-attention of a motion-forecasting context encoder (a folder: the attention over gathered neighbour keys whose logits are laid out (tokens, neighbours, heads) and normalised with softmax over dim=1, and the module that stacks the valid agent and map tokens of a batch, builds the neighbour index pairs with -1 for empty slots and scatters the result back)
# why: correct: the logits einsum("nhd,nkhd->nkh") puts the K neighbours on axis 1 and the heads last, so softmax(dim=1) normalises each query's weights over its neighbours per head, and the value product sums over the same k axis; the queries are multiplied by head_dim ** -0.5 before the product; the -1 slots (and an optional extra mask) are filled with -inf, and since a token is always its own nearest neighbour no row is emptied
# looks-like: ATT001, ATT003, ATT005, ATT007
# source: https://github.com/sshaoshuai/MTR https://github.com/sshaoshuai/MTR/commit/99afddb0d2e1b1e0b7fd42e7fdd7944312cb6dc8 mtr/models/utils/transformer/multi_head_attention_local.py
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn


class NeighbourAttention(nn.Module):
    """Each of N stacked tokens attends over the K tokens listed in its row of `pairs`."""

    def __init__(self, dim: int, heads: int, dropout: float = 0.0):
        super().__init__()
        if dim % heads:
            raise ValueError("dim must be divisible by heads")
        self.dim, self.heads, self.head_dim = dim, heads, dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.dropout = dropout

    def forward(
        self, tokens: torch.Tensor, pairs: torch.Tensor, extra_mask: Optional[torch.Tensor] = None
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        n, k = pairs.shape
        q, key, val = self.to_qkv(tokens).chunk(3, dim=-1)
        q = (q * self.head_dim ** -0.5).view(n, self.heads, self.head_dim)
        key = key.view(n, self.heads, self.head_dim)
        val = val.view(n, self.heads, self.head_dim)

        gather_at = pairs.clamp(min=0)
        nb_key, nb_val = key[gather_at], val[gather_at]      # (N, K, H, hd)
        logits = torch.einsum("nhd,nkhd->nkh", q, nb_key)    # (N, K, H)

        unused = pairs < 0
        if extra_mask is not None:
            unused = unused | extra_mask.bool()
        logits = logits.masked_fill(unused.unsqueeze(-1), float("-inf"))
        weights = F.softmax(logits, dim=1)
        weights = F.dropout(weights, p=self.dropout, training=self.training)

        out = torch.einsum("nkh,nkhd->nhd", weights, nb_val).reshape(n, self.dim)
        return self.proj(out), weights.mean(dim=-1)
