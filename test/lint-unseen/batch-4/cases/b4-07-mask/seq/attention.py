from typing import Optional

import numpy as np
import torch
from torch import Tensor, nn


class DotProductScores(nn.Module):
    def __init__(self, temperature: float):
        super().__init__()
        self.temperature = temperature
        self.softmax = nn.Softmax(dim=3)

    def forward(self, q: Tensor, k: Tensor, mask: Optional[Tensor]) -> Tensor:
        # q: (batch, heads, q_len, d_head), k: (batch, heads, k_len, d_head)
        scores = torch.matmul(q, k.transpose(2, 3))  # (batch, heads, q_len, k_len)
        if mask is not None:
            scores = scores.masked_fill(mask, -1e9)  # expect: ATT002
        return self.softmax(scores / self.temperature)


class HeadsAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_head = d_model // n_heads
        self.n_heads = n_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)
        self.scores = DotProductScores(temperature=np.sqrt(self.d_head))
        self.drop = nn.Dropout(dropout)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, mask: Optional[Tensor]) -> Tensor:
        b, lq, d_model = query.size()
        lk = key.size(1)
        q = self.wq(query).view(b, lq, self.n_heads, self.d_head).transpose(1, 2)
        k = self.wk(key).view(b, lk, self.n_heads, self.d_head).transpose(1, 2)
        v = self.wv(value).view(b, lk, self.n_heads, self.d_head).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1)  # head axis: (batch, 1, q_len or 1, k_len)
        weights = self.drop(self.scores(q, k, mask))
        ctx = torch.matmul(weights, v).transpose(1, 2).contiguous().view(b, lq, d_model)
        return self.wo(ctx)
