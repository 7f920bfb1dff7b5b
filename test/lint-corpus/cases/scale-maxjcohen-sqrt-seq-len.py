# case: scale-maxjcohen-sqrt-seq-len
# modelled-on: maxjcohen/transformer https://github.com/maxjcohen/transformer/blob/master/tst/multiHeadAttention.py
# label: buggy
# pattern: the library version of the same block: bmm(queries, keys.transpose(1, 2)) on (h * batch, K, q) tensors, divided by np.sqrt(K) with K = query.shape[1], the time-window length; local and future masks filled with -inf
# why: the transpose(1, 2) is right for 3-D keys, but the divisor is the square root of the sequence length instead of the key dimension q, so the scaling changes with the window size
from typing import Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def generate_local_map_mask(chunk_size: int, attention_size: int, device: torch.device = None) -> torch.BoolTensor:
    """True where |i - j| > attention_size, i.e. outside the local window."""
    local_map = np.empty((chunk_size, chunk_size))
    i, j = np.indices(local_map.shape)
    local_map[i, j] = np.abs(i - j) > attention_size
    return torch.BoolTensor(local_map).to(device)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, q: int, v: int, h: int, attention_size: Optional[int] = None):
        super().__init__()
        self._h = h
        self._attention_size = attention_size
        self._W_q = nn.Linear(d_model, q * self._h)
        self._W_k = nn.Linear(d_model, q * self._h)
        self._W_v = nn.Linear(d_model, v * self._h)
        self._W_o = nn.Linear(self._h * v, d_model)
        self._scores = None

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, mask: Optional[str] = None) -> torch.Tensor:
        K = query.shape[1]
        queries = torch.cat(self._W_q(query).chunk(self._h, dim=-1), dim=0)  # (h*B, K, q)
        keys = torch.cat(self._W_k(key).chunk(self._h, dim=-1), dim=0)
        values = torch.cat(self._W_v(value).chunk(self._h, dim=-1), dim=0)

        self._scores = torch.bmm(queries, keys.transpose(1, 2)) / np.sqrt(K)  # expect: ATT004

        if self._attention_size is not None:
            attention_mask = generate_local_map_mask(K, self._attention_size, self._scores.device)
            self._scores = self._scores.masked_fill(attention_mask, float("-inf"))
        if mask == "subsequent":
            future_mask = torch.triu(torch.ones((K, K)), diagonal=1).bool().to(self._scores.device)
            self._scores = self._scores.masked_fill(future_mask, float("-inf"))
        self._scores = F.softmax(self._scores, dim=-1)
        attention = torch.bmm(self._scores, values)
        return self._W_o(torch.cat(attention.chunk(self._h, dim=0), dim=-1))
