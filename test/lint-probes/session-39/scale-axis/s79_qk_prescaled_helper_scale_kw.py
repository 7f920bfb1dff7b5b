import math
import torch
import torch.nn as nn


def attention(q, k, v, scale=None):
    # q, k, v: (B, H, T, d)
    scale = scale or q.shape[-1] ** -0.5
    return torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v


class UsesHelper(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        return attention(q, k, v).transpose(1, 2).reshape(B, T, D)
