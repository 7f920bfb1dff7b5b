import math
import torch
import torch.nn as nn


class WindowAttention1H(nn.Module):
    """One head over the whole width, within windows: q is (B, n_windows, W, dim), axis 1 is windows, not heads."""

    def __init__(self, dim, window):
        super().__init__()
        self.dim = dim
        self.window = window
        self.to_q = nn.Linear(dim, dim)
        self.to_kv = nn.Linear(dim, 2 * dim)


class Blocks(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.local = WindowAttention1H(dim, window)
        self.dim = dim
        self.window = window
        self.to_q = nn.Linear(dim, dim)
        self.to_kv = nn.Linear(dim, 2 * dim)

    def forward(self, x):
        B, N, C = x.shape
        nw = N // self.window
        q = self.to_q(x).view(B, nw, self.window, C)  # (B, nw, W, C)
        k, v = self.to_kv(x).view(B, nw, self.window, 2 * C).chunk(2, dim=-1)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.dim)  # (B, nw, W, W)
        return (s.softmax(dim=-1) @ v).reshape(B, N, C)
