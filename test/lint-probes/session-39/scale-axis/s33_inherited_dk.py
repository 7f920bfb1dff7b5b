import math
import torch
import torch.nn as nn


class AttentionBase(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        assert d_model % h == 0
        self.h = h
        self.d_k = d_model // h
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])


class SelfAttention(AttentionBase):
    def forward(self, x, mask=None):
        nb = x.size(0)
        q, k, v = [l(x).view(nb, -1, self.h, self.d_k).transpose(1, 2) for l in self.linears[:3]]
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        p = scores.softmax(dim=-1)
        x = torch.matmul(p, v).transpose(1, 2).contiguous().view(nb, -1, self.h * self.d_k)
        return self.linears[-1](x)
