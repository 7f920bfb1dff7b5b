import math
import torch
import torch.nn as nn


class LateDims(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.dim = dim
        self.n_heads = n_heads
        self._init_dims()
        self.q_lin = nn.Linear(dim, dim)
        self.k_lin = nn.Linear(dim, dim)
        self.v_lin = nn.Linear(dim, dim)

    def _init_dims(self):
        self.dim_per_head = self.dim // self.n_heads

    def shape(self, x, bs):
        return x.view(bs, -1, self.n_heads, self.dim_per_head).transpose(1, 2)

    def forward(self, x):
        bs = x.size(0)
        q = self.shape(self.q_lin(x), bs)
        k = self.shape(self.k_lin(x), bs)
        v = self.shape(self.v_lin(x), bs)
        q = q / math.sqrt(self.dim_per_head)
        scores = torch.matmul(q, k.transpose(2, 3))  # (bs, n_heads, T, T)
        weights = nn.functional.softmax(scores.float(), dim=-1).type_as(scores)
        ctx = torch.matmul(weights, v)
        return ctx.transpose(1, 2).contiguous().view(bs, -1, self.dim)
