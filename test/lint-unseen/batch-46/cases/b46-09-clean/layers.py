import math

import torch
import torch.nn.functional as F
from torch import nn


def attend(q, k, v, mask=None):
    d = q.size(-1)
    logits = q @ k.transpose(-2, -1) / math.sqrt(d)
    if mask is not None:
        logits = logits.masked_fill(mask == 0, -1e9)
    p = F.softmax(logits, dim=-1)
    return p @ v, p


class HeadsAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        assert d_model % n_heads == 0
        self.h, self.dk, self.d_model = n_heads, d_model // n_heads, d_model
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def _split(self, x):
        return x.view(x.size(0), -1, self.h, self.dk).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        ctx, p = attend(self._split(self.q(query)), self._split(self.k(key)), self._split(self.v(value)), mask)
        ctx = ctx.transpose(1, 2).contiguous().view(query.size(0), -1, self.d_model)
        return self.o(ctx), p


class DecoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, p=0.1):
        super().__init__()
        self.self_attn = HeadsAttention(d_model, n_heads)
        self.cross_attn = HeadsAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))
        self.drop = nn.Dropout(p)

    def forward(self, y, memory, src_mask, tgt_mask):
        y = self.norms[0](y + self.drop(self.self_attn(y, y, y, tgt_mask)[0]))
        y = self.norms[1](y + self.drop(self.cross_attn(y, memory, memory, src_mask)[0]))
        return self.norms[2](y + self.drop(self.ff(y)))
