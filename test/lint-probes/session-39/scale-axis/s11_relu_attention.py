import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReLUAttention(nn.Module):
    """ReLU attention (no softmax): the weights are relu(qk/sqrt(d)) / L, a length normalisation."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (B, h, L, L)
        w = F.relu(s) / L
        return (w @ v).transpose(1, 2).reshape(B, L, D)
