# case: b4-10-fill
# modelled-on: guyjacoby/original-transformer-pytorch https://github.com/guyjacoby/original-transformer-pytorch/commit/f473a3444334c4de04989c2d8d9f3cdbb48e98f3
# label: correct
# class: fixed
# pattern: the same multi-head attention after the fix, in a package: utils/data_utils.py turns the tokenizer's attention_mask into a bool keep mask in the collate function and combines it with `ones().tril() == 1` for the target; the attention fills `mask == False` with -inf in place before an nn.Softmax(dim=-1); a training step hands the collated masks to the model
# why: correct: the masks are True where attention is allowed, `mask == False` selects the padding and the future, and they get -inf (commit cd5b01d changed both the fill value and the comparison; the helper is from commit f473a34)
# looks-like: ATT002, ATT007
# source: https://github.com/guyjacoby/original-transformer-pytorch https://github.com/guyjacoby/original-transformer-pytorch/commit/f473a3444334c4de04989c2d8d9f3cdbb48e98f3 src/models/transformer.py
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
        # the mask is True where attention is allowed (padding and future are False)
        if mask is not None:
            scores.masked_fill_(mask == False, float("-inf"))
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
