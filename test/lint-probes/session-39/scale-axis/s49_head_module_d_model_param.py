import math
import torch
import torch.nn as nn


class Head(nn.Module):
    """One head; its `d_model` parameter is this head's own width (the caller passes d_model // h)."""

    def __init__(self, d_model):
        super().__init__()
        self.d_model = d_model
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)  # (B, T, d_model of this head)
        w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_model), dim=-1)
        return w @ v


class MultiHead(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.d_model = d_model
        self.h = h
        self.inp = nn.Linear(d_model, d_model)
        self.heads = nn.ModuleList([Head(d_model // h) for _ in range(h)])

    def forward(self, x):
        B, T, D = x.shape
        parts = self.inp(x).view(B, T, self.h, D // self.h).unbind(2)
        return torch.cat([head(p) for head, p in zip(self.heads, parts)], dim=-1)
