# case: b15-13-clean
# modelled-on: ajhalthor/Transformer-Neural-Network https://github.com/ajhalthor/Transformer-Neural-Network/commit/9ad642b12927714928105a78be24a1494fb7b6f6
# label: correct
# class: clean
# pattern: an English-to-Kannada character-level transformer from a video series; the trainer builds per-pair boolean matrices (triu(full(True), diagonal=1) for the future, True rows and columns for padding), ORs them and turns them into additive masks with torch.where(mask, -1e9, 0); the attention helper scales q @ k^T by sqrt(d_k), moves the heads axis first with permute(1, 0, 2, 3) so that a (batch, T, T) mask broadcasts over heads, adds the mask, permutes back and softmaxes over the last axis
# why: correct: the boolean matrices are True exactly where attention is forbidden (future positions and padding), so where(mask, -1e9, 0) puts the large negative value on the hidden positions and 0 elsewhere; adding it before the softmax hides them; the permute pair only aligns the batch axis of the scores with the mask's and is undone before the softmax; padded query rows come out uniform and are ignored by the loss
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/ajhalthor/Transformer-Neural-Network https://github.com/ajhalthor/Transformer-Neural-Network/commit/9ad642b12927714928105a78be24a1494fb7b6f6 transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def attend(q, k, v, mask=None):
    """q, k, v: (batch, heads, T, d); mask: additive, (batch, T, T)."""
    d_k = q.size()[-1]
    scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.permute(1, 0, 2, 3) + mask  # (heads, batch, T, T) + (batch, T, T)
        scores = scores.permute(1, 0, 2, 3)
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, v), weights


class SelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, mask):
        b, t, _ = x.size()
        qkv = self.qkv(x).reshape(b, t, self.num_heads, 3 * self.head_dim).permute(0, 2, 1, 3)
        q, k, v = qkv.chunk(3, dim=-1)
        values, _ = attend(q, k, v, mask)
        values = values.permute(0, 2, 1, 3).reshape(b, t, self.num_heads * self.head_dim)
        return self.out(values)


class CrossAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.q = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, y, mask):
        b, t, _ = y.size()
        kv = self.kv(x).reshape(b, x.size(1), self.num_heads, 2 * self.head_dim).permute(0, 2, 1, 3)
        q = self.q(y).reshape(b, t, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        k, v = kv.chunk(2, dim=-1)
        values, _ = attend(q, k, v, mask)
        values = values.permute(0, 2, 1, 3).reshape(b, t, self.num_heads * self.head_dim)
        return self.out(values)
