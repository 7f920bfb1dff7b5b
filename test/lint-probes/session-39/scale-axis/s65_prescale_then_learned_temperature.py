import torch
import torch.nn as nn


class TempAfterScale(nn.Module):
    """q scaled by 1/sqrt(d); the scores then divided by a learned temperature initialised at 1."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.scale = self.hd ** -0.5
        self.temperature = nn.Parameter(torch.ones(heads, 1, 1))
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        s = (q @ k.transpose(-2, -1)) / self.temperature
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
