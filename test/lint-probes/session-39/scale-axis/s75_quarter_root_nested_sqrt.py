import math
import torch
import torch.nn as nn


class SymmetricScale(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        r = 1.0 / math.sqrt(math.sqrt(self.hd))
        q, k = q * r, k * r
        return ((q @ k.transpose(-2, -1)).softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
