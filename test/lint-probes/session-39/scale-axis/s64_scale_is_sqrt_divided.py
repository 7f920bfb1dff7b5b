import math
import torch
import torch.nn as nn


class SqrtScaleDivided(nn.Module):
    """`self.scale` holds sqrt(head_dim) and the scores are divided by it."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = math.sqrt(self.head_dim)
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) / self.scale
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
