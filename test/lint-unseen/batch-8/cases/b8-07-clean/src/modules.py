# case: b8-07-clean
# modelled-on: harmansingh2005/transformer-from-scratch https://github.com/harmansingh2005/transformer-from-scratch/commit/55af2226b5bda204b9ea97f273052d88411201c3
# label: correct
# class: clean
# pattern: an encoder-decoder translation transformer whose attention module fills masked_fill(mask, torch.finfo(scores.dtype).min); the model module builds ignore masks, (tokens == pad) for padding and triu(ones, diagonal=1) for the look-ahead, combined with | for the decoder's self-attention
# why: correct: every mask is True where attention is forbidden (padding keys, future positions), which is what masked_fill(mask, ...) needs; the fill is the dtype's own minimum, so it fits any precision and a row never becomes NaN; the BOS token keeps every decoder row non-empty
# looks-like: ATT002, ATT007
# source: https://github.com/harmansingh2005/transformer-from-scratch https://github.com/harmansingh2005/transformer-from-scratch/commit/55af2226b5bda204b9ea97f273052d88411201c3 src/modules.py
import math

import torch
import torch.nn as nn


class ScaledDotProduct(nn.Module):
    def __init__(self, d_k: int, dropout: float = 0.1):
        super().__init__()
        self.scale = 1.0 / math.sqrt(d_k)
        self.dropout = nn.Dropout(dropout)

    def forward(self, Q, K, V, mask=None):
        scores = torch.matmul(Q, K.transpose(-2, -1)) * self.scale
        if mask is not None:
            lowest = torch.finfo(scores.dtype).min
            scores = scores.masked_fill(mask, lowest)
        attn = self.dropout(torch.softmax(scores, dim=-1))
        return torch.matmul(attn, V)


class MultiheadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        self.h, self.d_k = num_heads, d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.attn = ScaledDotProduct(self.d_k, dropout)

    def forward(self, query, key, value, mask=None):
        B = query.size(0)
        Q = self.W_q(query).view(B, -1, self.h, self.d_k).transpose(1, 2)
        K = self.W_k(key).view(B, -1, self.h, self.d_k).transpose(1, 2)
        V = self.W_v(value).view(B, -1, self.h, self.d_k).transpose(1, 2)
        out = self.attn(Q, K, V, mask)
        return self.W_o(out.transpose(1, 2).contiguous().view(B, -1, self.h * self.d_k))
