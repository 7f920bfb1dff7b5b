import math
import torch
import torch.nn as nn


class FoldedScaleAttention(nn.Module):
    """Scale folded into the query projection's weights at init."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        with torch.no_grad():
            self.q.weight.mul_(self.head_dim ** -0.5)
            self.q.bias.mul_(self.head_dim ** -0.5)

    def forward(self, x):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)  # (B, H, T, D)
        k = self.k(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        att = q @ k.transpose(-2, -1)  # already scaled through q's weights
        att = att.softmax(dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)
