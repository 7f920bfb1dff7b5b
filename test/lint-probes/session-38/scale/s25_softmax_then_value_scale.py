import math
import torch
import torch.nn as nn


class GatedAttention(nn.Module):
    """Weights times a learned per-head gate after softmax (a gate, not a scale of the logits)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.gate = nn.Parameter(torch.zeros(heads, 1, 1))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        w = (q @ k.transpose(-2, -1) / math.sqrt(self.hd)).softmax(-1)
        w = w * torch.sigmoid(self.gate)
        return (w @ v).transpose(1, 2).reshape(B, T, C)
