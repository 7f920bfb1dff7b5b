# case: t43cc-10-clean
# modelled-on: 1boChen/gene-rel-graph-transformer https://github.com/1boChen/gene-rel-graph-transformer/commit/6ac340b480627dd9df948a591dbe999e957a416f
# label: correct
# class: clean
# pattern: a gene-relation graph model mixes three projected embeddings of each node (DNA, text and protein language-model features) with a small "attention across heads" before graph transformer convolutions: the concatenated (N, E) vector is split into H chunks, q/k/v are per-chunk linear maps, `scores = (q * k).sum(-1) / embed_size ** 0.5` gives one score per chunk, `torch.softmax(scores, dim=-1)` normalises over the H chunks, and the values are weighted chunk by chunk; the class docstring says it is not a full Transformer attention but per-node attention across heads; the graph model (another file) calls it with the same tensor as query, key and value
# why: correct: there is no sequence axis here: each node attends over its own H chunks, so the softmax over the last axis of the (N, H) scores is over the chunks, as the docstring describes, and the elementwise product summed over the chunk width is the dot product of q and k without any transpose; the division by the full width is this gating's temperature (the authors' design, contradicting no stated intent), not the 1/sqrt(d_k) of scaled dot-product attention over tokens
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/1boChen/gene-rel-graph-transformer https://github.com/1boChen/gene-rel-graph-transformer/commit/6ac340b480627dd9df948a591dbe999e957a416f src/gene_rel_gt/models/layers.py
from __future__ import annotations

import torch
import torch.nn as nn


class ChunkAttention(nn.Module):
    """Per-node attention across heads: elementwise q*k, softmax over the head dimension.

    Not a full Transformer attention (there is no sequence axis).
    """

    def __init__(self, embed_size: int, num_heads: int = 4):
        super().__init__()
        self.embed_size = embed_size
        self.num_heads = num_heads
        self.head_dim = embed_size // num_heads
        assert self.head_dim * num_heads == embed_size

        self.values = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.keys = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.queries = nn.Linear(self.head_dim, self.head_dim, bias=False)
        self.fc_out = nn.Linear(num_heads * self.head_dim, embed_size)

    def forward(self, value: torch.Tensor, key: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
        n = query.shape[0]
        v = self.values(value.reshape(n, self.num_heads, -1))
        k = self.keys(key.reshape(n, self.num_heads, -1))
        q = self.queries(query.reshape(n, self.num_heads, -1))

        scores = (q * k).sum(dim=-1) / (self.embed_size ** 0.5)  # [N, H]
        weights = torch.softmax(scores, dim=-1).unsqueeze(-1)  # [N, H, 1]
        mixed = (v * weights).reshape(n, self.embed_size)
        return self.fc_out(mixed)
