import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head attention; a mask holds 1 (True) where a position must be hidden."""

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.scale = math.sqrt(self.d_k)

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        bsz = query.size(0)
        q = self.w_q(query).view(bsz, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(key).view(bsz, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(value).view(bsz, -1, self.n_heads, self.d_k).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / self.scale
        if mask is not None:
            scores = scores.masked_fill(mask == 1, float("-inf"))
        weights = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(weights, v)
        ctx = ctx.transpose(1, 2).contiguous().view(bsz, -1, self.d_model)
        return self.w_o(ctx)
