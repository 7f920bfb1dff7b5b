import math
import torch
import torch.nn as nn


class AnnealedAttention(nn.Module):
    """Scaled scores, then a temperature annealed during training (starts at 1)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.tau = 1.0
        self.qkv = nn.Linear(dim, 3 * dim)

    def set_tau(self, step, total):
        self.tau = max(0.1, 1.0 - step / total)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        w = torch.softmax(s / self.tau, dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)
