# case: b10-06-clean
# modelled-on: hannesbernhard/transformer-attention-is-all-you-need https://github.com/hannesbernhard/transformer-attention-is-all-you-need/commit/b72a673
# label: correct
# class: clean
# pattern: a keep mask (1 = real token) built per example in the dataset module, unsqueezed to the score rank in the attention and applied as masked_fill(~mask.bool(), -inf); the future mask is a separate triu(..., 1) bool filled directly
# why: the dataset marks real tokens with 1 and the attention inverts that once; triu with diagonal=1 is True exactly on the future, which masked_fill masks; every row keeps at least the BOS key
# looks-like: ATT002, ATT007
# source: https://github.com/hannesbernhard/transformer-attention-is-all-you-need https://github.com/hannesbernhard/transformer-attention-is-all-you-need/commit/b72a673 src/modelling/layers/attention.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledAttention(nn.Module):
    def __init__(self, mask_future: bool = False):
        super().__init__()
        self.mask_future = mask_future

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None):
        """mask: broadcastable to (..., query_len, key_len); 1 marks a valid key, 0 a masked one."""
        d_k = key.size(-1)
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)

        if mask is not None:
            while mask.dim() < scores.dim():  # (B, K) -> (B, 1, K) or (B, 1, 1, K)
                mask = mask.unsqueeze(-2)
            scores = scores.masked_fill(~mask.bool(), float("-inf"))

        if self.mask_future:
            future = torch.triu(
                torch.ones(scores.size(-2), scores.size(-1), device=scores.device, dtype=torch.bool),
                diagonal=1,
            )
            scores = scores.masked_fill(future.view((1,) * (scores.dim() - 2) + future.shape), float("-inf"))

        return torch.matmul(F.softmax(scores, dim=-1), value)


class MultiHead(nn.Module):
    def __init__(self, d_model: int, n_heads: int, mask_future: bool = False):
        super().__init__()
        self.h = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.core = ScaledAttention(mask_future)

    def forward(self, x_q, x_kv, mask=None):
        b, tq, d = x_q.shape
        tk = x_kv.shape[1]
        q = self.q(x_q).view(b, tq, self.h, d // self.h).transpose(1, 2)
        k = self.k(x_kv).view(b, tk, self.h, d // self.h).transpose(1, 2)
        v = self.v(x_kv).view(b, tk, self.h, d // self.h).transpose(1, 2)
        out = self.core(q, k, v, mask)
        return self.o(out.transpose(1, 2).reshape(b, tq, d))
