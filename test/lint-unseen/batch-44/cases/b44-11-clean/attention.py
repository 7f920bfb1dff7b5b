"""Scaled dot-product attention written twice (NumPy for one sequence, PyTorch for batches of heads)."""
import math

import numpy as np
import torch
from torch import nn


def attend_np(q, k, v, blocked=None):
    """q, k, v: (T, d); blocked: optional bool (T, T), True where query i must not see key j."""
    d = q.shape[-1]
    s = q @ k.T / math.sqrt(d)
    if blocked is not None:
        s = s + blocked * -1e9
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return w @ v, w


def attend(q, k, v, blocked=None):
    """q, k, v: (B, H, T, d); blocked: (1, 1, T, T) bool, True = hidden."""
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if blocked is not None:
        s = s.masked_fill(blocked, float("-inf"))
    w = torch.softmax(s, dim=-1)
    return w @ v, w


def future_positions(n: int, device=None) -> torch.Tensor:
    """(1, 1, n, n) bool, True strictly above the diagonal: the keys a query may not read."""
    return torch.triu(torch.ones(n, n, dtype=torch.bool, device=device), diagonal=1)[None, None]


class Heads(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)
        self.last_weights = None

    def forward(self, x, blocked=None):
        b, t, d = x.shape
        split = lambda y: y.view(b, t, self.h, self.dk).transpose(1, 2)
        out, w = attend(split(self.q(x)), split(self.k(x)), split(self.v(x)), blocked)
        self.last_weights = w.detach()
        return self.o(out.transpose(1, 2).reshape(b, t, d))
