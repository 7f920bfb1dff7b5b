# case: transpose-maxjcohen-keys-T-batched
# modelled-on: maxjcohen/transformer https://github.com/maxjcohen/transformer/issues/43
# label: buggy
# pattern: a user "simplified" torch.bmm(queries, keys.transpose(1, 2)) to queries @ keys.T on keys of shape (h * batch, K, q); the library's divisor np.sqrt(K), where K is the sequence length, was kept
# why: .T on a 3-D tensor reverses all three axes, giving (q, K, h * batch) instead of (h * batch, q, K) (the size-mismatch error in #43); and sqrt(K) scales by the time-window length instead of sqrt(q), the key dimension
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, q: int, v: int, h: int):
        super().__init__()
        self._h = h
        self._W_q = nn.Linear(d_model, q * self._h)
        self._W_k = nn.Linear(d_model, q * self._h)
        self._W_v = nn.Linear(d_model, v * self._h)
        self._W_o = nn.Linear(self._h * v, d_model)
        self._scores = None

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, mask: Optional[str] = None) -> torch.Tensor:
        K = query.shape[1]  # time window length
        # heads concatenated on the batch dimension: (h * batch, K, q)
        queries = torch.cat(self._W_q(query).chunk(self._h, dim=-1), dim=0)
        keys = torch.cat(self._W_k(key).chunk(self._h, dim=-1), dim=0)
        values = torch.cat(self._W_v(value).chunk(self._h, dim=-1), dim=0)

        self._scores = (queries @ keys.T) / np.sqrt(K)  # expect: ATT005, ATT004

        if mask == "subsequent":
            future_mask = torch.triu(torch.ones((K, K)), diagonal=1).bool().to(self._scores.device)
            self._scores = self._scores.masked_fill(future_mask, float("-inf"))
        self._scores = F.softmax(self._scores, dim=-1)
        attention = torch.bmm(self._scores, values)
        attention_heads = torch.cat(attention.chunk(self._h, dim=0), dim=-1)
        return self._W_o(attention_heads)
