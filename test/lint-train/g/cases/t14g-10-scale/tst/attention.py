# case: t14g-10-scale
# modelled-on: taihim/timeseries-transformer https://github.com/taihim/timeseries-transformer/commit/05ce5d9e5fc2fe7956103d73432d3bc48c47db85
# label: buggy
# class: real-bug
# pattern: a time-series classification study that swaps attention mechanisms in one encoder (single-head, "multi-head", windowed, Linformer-style): the multi-head layer clones a Linear(head_size, head_size) per projection with a helper from another module, sets d_k = head_size // num_heads, projects query, key and value to head_size and, without ever splitting them into heads, divides query @ key.transpose(-2, -1) by math.sqrt(self.d_k) before a softmax over the last axis; the encoder (a third module) picks the layer from a config switch
# why: buggy: the keys are never split, so every dot product runs over all head_size features, but the scores are divided by sqrt(head_size / num_heads), sqrt(num_heads) too little; the sibling layers of the same module that do split into (batch, heads, seq, d_k) use the same d_k correctly, and the single-head layer divides by sqrt(head_size); no fix was found, the label rests on the paper's 1/sqrt(d_k) of the vectors actually multiplied
# source: https://github.com/taihim/timeseries-transformer https://github.com/taihim/timeseries-transformer/commit/05ce5d9e5fc2fe7956103d73432d3bc48c47db85 src/timeseries_transformer/attention.py
import math

import torch
from torch import nn

from tst.utils import clone_layers


class ScaledDPAttention(nn.Module):
    def __init__(self, head_size, dropout=0.1):
        super().__init__()
        self.d_k = head_size
        self.proj = nn.Linear(head_size, head_size * 3)
        self.dropout = nn.Dropout(dropout) if dropout > 0 else None

    def forward(self, x, mask=None):
        query, key, value = self.proj(x).chunk(3, dim=-1)
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        p_attn = scores.softmax(dim=-1)
        if self.dropout is not None:
            p_attn = self.dropout(p_attn)
        return torch.matmul(p_attn, value)


class MultiHeadAttention(nn.Module):
    def __init__(self, head_size, num_heads, dropout=0.1):
        super().__init__()
        assert head_size % num_heads == 0
        self.d_k = head_size // num_heads
        self.weight_matrices = clone_layers(nn.Linear(head_size, head_size), 4)
        self.attn = None

    def _attention(self, query, key, value):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)  # expect: ATT004
        p_attn = scores.softmax(dim=-1)
        return torch.matmul(p_attn, value), p_attn

    def forward(self, query, key, value):
        query, key, value = [w(x) for w, x in zip(self.weight_matrices, (query, key, value))]
        x, self.attn = self._attention(query, key, value)
        return self.weight_matrices[-1](x)
