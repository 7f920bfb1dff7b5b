from math import sqrt
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor
from torch.nn.functional import softmax


def attend(q: Tensor, k: Tensor, v: Tensor, mask: Optional[Tensor] = None, dropout: Optional[nn.Module] = None):
    # q, k: (b, h, L, d_q); mask: (b, 1, L, L), True where the key is ignored
    d_q = q.size(-1)
    a = torch.matmul(q, k.transpose(-2, -1)) / sqrt(d_q)
    if mask is not None:
        a = a.masked_fill(mask == 1, -1e9)
    p = softmax(a, dim=-1)
    if dropout is not None:
        p = dropout(p)
    return torch.matmul(p, v), p


class MultiHeaded(nn.Module):
    def __init__(self, heads, hidden, time_dim=0, dropout=0.1):
        super().__init__()
        assert hidden % heads == 0
        self.heads = heads
        self.d_v = hidden // heads
        self.time_dim = time_dim
        self.w_q = nn.Linear(hidden, hidden)
        self.w_k = nn.Linear(hidden, hidden)
        self.w_v = nn.Linear(hidden, hidden)
        self.w_o = nn.Linear(hidden, hidden)
        self.w_t = nn.Linear(time_dim, time_dim) if time_dim else None
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, t=None, mask=None):
        b = q.size(0)
        q = self.w_q(q).view(b, -1, self.heads, self.d_v).transpose(1, 2)
        k = self.w_k(k).view(b, -1, self.heads, self.d_v).transpose(1, 2)
        v = self.w_v(v).view(b, -1, self.heads, self.d_v).transpose(1, 2)
        if self.w_t is not None and t is not None:
            # temporal attention: the time features join the queries and keys of every head
            t = self.w_t(t).unsqueeze(1).repeat(1, self.heads, 1, 1)
            q = torch.cat((q, t), -1)
            k = torch.cat((k, t), -1)
        x, _ = attend(q, k, v, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.heads * self.d_v)
        return self.w_o(x)


class Block(nn.Module):
    def __init__(self, heads, hidden, time_dim=0, dropout=0.1):
        super().__init__()
        self.attn = MultiHeaded(heads, hidden, time_dim, dropout)
        self.ff = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.norm1 = nn.LayerNorm(hidden)
        self.norm2 = nn.LayerNorm(hidden)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, t, mask):
        h = self.norm1(x)
        x = x + self.drop(self.attn(h, h, h, t, mask=mask))
        return x + self.drop(self.ff(self.norm2(x)))
