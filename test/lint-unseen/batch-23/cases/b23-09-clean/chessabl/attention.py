import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def sdp_attention(q, k, v, mask: Optional[torch.Tensor] = None, dropout: float = 0.0, training: bool = False):
    """q: (B, H, Tq, d); k, v: (B, H, Tk, d); mask is True where attention is BLOCKED."""
    d = q.size(-1)
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d)
    if mask is not None:
        scores = scores.masked_fill(mask == 1, float("-inf"))
    w = F.softmax(scores, dim=-1)
    if dropout > 0.0 and training:
        w = F.dropout(w, p=dropout)
    return torch.matmul(w, v), w


def causal_mask(n: int, device) -> torch.Tensor:
    """True strictly above the diagonal: position i may not see j > i."""
    return torch.triu(torch.ones(n, n, device=device), diagonal=1).bool()


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.dropout = dropout
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, mask=None, past_kv: Optional[Tuple[torch.Tensor, torch.Tensor]] = None, use_cache=False):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(self.d_model, dim=-1)
        shape = lambda z: z.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        q, k, v = shape(q), shape(k), shape(v)
        if past_kv is not None:  # keys and values of the earlier decode steps go first
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        present = (k, v) if use_cache else None
        y, _ = sdp_attention(q, k, v, mask=mask, dropout=self.dropout, training=self.training)
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.out(y), present
