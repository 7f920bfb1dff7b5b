import math
import torch
import torch.nn as nn


class MupAttention(nn.Module):
    """muP attention: 1/d on purpose (the logits of aligned q and k grow like d in the infinite-width limit)."""

    def __init__(self, dim, heads, use_mup=False, attn_mult=1.0):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        if use_mup:
            self.scale = attn_mult / self.head_dim
        else:
            self.scale = 1.0 / math.sqrt(self.head_dim)
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) * self.scale
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
