import numpy as np
import torch
import torch.nn as nn
from torch.nn.functional import softmax
from torch.nn.init import kaiming_normal_


class DotAttention(nn.Module):
    """softmax(Q K^T / sqrt(d)) V over (batch * heads, len, d) tensors."""

    def __init__(self, dim_qk):
        super().__init__()
        self.factor = np.power(dim_qk, -0.5)

    def forward(self, value, key, query, illegal=None):
        # illegal: (batch * heads, q_len, k_len) bool, True on connections that are not allowed
        weights = query.bmm(key.transpose(1, 2)) * self.factor
        if illegal is not None:
            weights = weights.masked_fill(illegal, -float("inf"))
        weights = softmax(weights, 2)
        return weights.bmm(value), weights


class StackedHeadsAttention(nn.Module):
    """Each head owns a (dim_m, d) projection; the heads are stacked along the batch axis."""

    def __init__(self, n_heads, dim_m, dim_qk, dim_v, dropout=0.1):
        super().__init__()
        self.n_heads, self.dim_m = n_heads, dim_m
        self.dim_qk, self.dim_v = dim_qk, dim_v
        self.proj_q = nn.Parameter(torch.empty(n_heads, dim_m, dim_qk))
        self.proj_k = nn.Parameter(torch.empty(n_heads, dim_m, dim_qk))
        self.proj_v = nn.Parameter(torch.empty(n_heads, dim_m, dim_v))
        for p in (self.proj_q, self.proj_k, self.proj_v):
            kaiming_normal_(p.data)
        self.core = DotAttention(dim_qk)
        self.merge = nn.Linear(n_heads * dim_v, dim_m)
        self.drop = nn.Dropout(dropout)
        self.norm = nn.LayerNorm(dim_m, eps=1e-12)

    def _tile(self, x):
        # (batch, len, dim_m) -> (heads, batch * len, dim_m)
        return x.reshape(-1, self.dim_m).repeat(self.n_heads, 1, 1)

    def forward(self, value, key, query, illegal=None):
        bsz, q_len, k_len = query.shape[0], query.shape[1], key.shape[1]
        residual = query
        v = self._tile(value).bmm(self.proj_v).view(-1, k_len, self.dim_v)
        k = self._tile(key).bmm(self.proj_k).view(-1, k_len, self.dim_qk)
        q = self._tile(query).bmm(self.proj_q).view(-1, q_len, self.dim_qk)
        if illegal is not None:
            illegal = illegal.repeat(self.n_heads, 1, 1)   # same head-major order as q, k, v
        ctx, _ = self.core(v, k, q, illegal)
        # (heads * batch, q_len, dim_v) -> (batch, q_len, heads * dim_v)
        ctx = torch.cat(ctx.split(bsz, dim=0), dim=-1)
        return self.norm(self.drop(self.merge(ctx)) + residual)
