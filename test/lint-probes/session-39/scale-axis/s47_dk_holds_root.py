import math
import torch
import torch.nn as nn


class RootInName(nn.Module):
    """`self.d_k` holds the root already (the name is a misnomer, the value is right)."""

    def __init__(self, d_model, h):
        super().__init__()
        self.h = h
        self.head = d_model // h
        self.d_k = math.sqrt(self.head)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.head).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / self.d_k
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
