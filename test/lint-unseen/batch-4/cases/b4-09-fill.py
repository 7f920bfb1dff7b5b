# case: b4-09-fill
# modelled-on: guyjacoby/original-transformer-pytorch https://github.com/guyjacoby/original-transformer-pytorch/commit/cd5b01db1b2bcc4e9786dbe927288c0c2fc10d3e
# label: buggy
# class: real-bug
# pattern: a paper-faithful multi-head attention: queries, keys and values are projected, reshaped to (N, heads, L, head_dim), the scores are divided by sqrt(head_dim), an optional mask is written into the scores in place with masked_fill_, and an nn.Softmax(dim=-1) built in __init__ normalises them
# why: the masked positions are filled with float('inf') instead of -inf, so after the softmax every masked position takes all the weight (and a row with several gets NaN) instead of none; commit cd5b01d fills with float('-inf')
# source: https://github.com/guyjacoby/original-transformer-pytorch https://github.com/guyjacoby/original-transformer-pytorch/commit/cd5b01db1b2bcc4e9786dbe927288c0c2fc10d3e src/models/transformer.py
import math

import torch
import torch.nn as nn


class PaperMHA(nn.Module):
    def __init__(self, d_model, n_heads, keep_weights=False, dropout=None):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be a multiple of n_heads"
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)
        self.softmax = nn.Softmax(dim=-1)
        self.keep_weights = keep_weights
        self.weights = None
        self.dropout = nn.Dropout(dropout) if dropout is not None else None

    def attend(self, q, k, v, mask):
        # (N, heads, Lq, d_head) @ (N, heads, d_head, Lk) -> (N, heads, Lq, Lk)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_head)
        # hide the future tokens in the target's self-attention
        if mask is not None:
            scores.masked_fill_(mask, float("inf"))  # expect: ATT007
        weights = self.softmax(scores)
        if self.dropout is not None:
            weights = self.dropout(weights)
        return torch.matmul(weights, v), weights

    def forward(self, query, key, value, mask):
        n = query.shape[0]
        q = self.q_proj(query).reshape(n, -1, self.n_heads, self.d_head).transpose(1, 2)
        k = self.k_proj(key).reshape(n, -1, self.n_heads, self.d_head).transpose(1, 2)
        v = self.v_proj(value).reshape(n, -1, self.n_heads, self.d_head).transpose(1, 2)
        out, weights = self.attend(q, k, v, mask)
        if self.keep_weights:
            self.weights = weights
        out = out.transpose(1, 2).reshape(n, -1, self.d_model)
        return self.o_proj(out)
