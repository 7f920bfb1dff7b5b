# case: b40-02-fill
# modelled-on: A-Elshahawy/FlexiTransformers https://github.com/A-Elshahawy/FlexiTransformers/commit/8bf1f2b0637f939d44a7ae5a2b819e2a0c15f153
# label: correct
# class: fixed
# pattern: interchangeable multi-head attention layers after the author's correction (a folder: the layers, the ALiBi slopes and the model settings): a base class keeps the four projections and a mask value whose constructor default is -inf, splits heads and hands q, k, v to the subclass; the plain layer scores q k^T / sqrt(d_k), the ALiBi layer adds a per-head linear distance bias, and both fill masked positions with the stored value before a softmax over the keys
# why: correct: the stored mask value is -inf and is written unnegated by masked_fill, so masked keys get zero weight; the masks the library builds (key padding, a causal triangle that keeps the diagonal) never hide a whole row, so the -inf fill yields no NaN rows; the ALiBi bias is added to the scores before the mask and the softmax
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/A-Elshahawy/FlexiTransformers https://github.com/A-Elshahawy/FlexiTransformers/commit/8bf1f2b0637f939d44a7ae5a2b819e2a0c15f153 flexit/attention.py
import math
from abc import ABC, abstractmethod
from copy import deepcopy

import torch
from torch import nn

from alibi import LinearBiases


class MultiHeadBase(ABC, nn.Module):
    def __init__(self, n_heads: int, d_model: int, dropout: float = 0.1, mask_eps: float = -float("inf")) -> None:
        super().__init__()
        if d_model % n_heads:
            raise ValueError("incompatible d_model and n_heads")
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        base = nn.Linear(d_model, d_model)
        self.in_q, self.in_k, self.in_v, self.out = (deepcopy(base) for _ in range(4))
        self.dropout = nn.Dropout(p=dropout)
        self.mask_eps: float = mask_eps
        self.attn = None

    @abstractmethod
    def attention(self, query, key, value, mask=None, dropout=None): ...

    def forward(self, query, key, value, mask=None):
        n = query.size(0)
        if mask is not None:
            mask = mask.unsqueeze(1).to(query.device)

        def split(proj, t):
            return proj(t).view(n, -1, self.n_heads, self.d_k).transpose(1, 2)

        x, self.attn = self.attention(split(self.in_q, query), split(self.in_k, key), split(self.in_v, value), mask, self.dropout)
        return self.out(x.transpose(1, 2).contiguous().view(n, -1, self.n_heads * self.d_k))


class DotProductAttention(MultiHeadBase):
    def attention(self, query, key, value, mask=None, dropout=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            scores = scores.masked_fill(mask == 0, self.mask_eps)
        probs = scores.softmax(dim=-1)
        probs = dropout(probs) if dropout is not None else probs
        return torch.matmul(probs, value), probs


class ALiBiAttention(MultiHeadBase):
    def __init__(self, n_heads: int, d_model: int, dropout: float = 0.1) -> None:
        super().__init__(n_heads, d_model, dropout)
        self.biases = LinearBiases(self.n_heads)

    def attention(self, query, key, value, mask=None, dropout=None):
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        q_len, k_len = scores.shape[-2:]
        table = self.biases(max(q_len, k_len), scores.device)
        if table.shape[0] != self.n_heads or table.shape[1] < q_len or table.shape[2] < k_len:
            raise ValueError("ALiBi table does not cover the attention shape")
        scores = scores + table[:, :q_len, :k_len].unsqueeze(0).expand(scores.size(0), -1, -1, -1)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, self.mask_eps)
        probs = scores.softmax(dim=-1)
        if dropout is not None:
            probs = dropout(probs)
        return torch.matmul(probs, value), probs
