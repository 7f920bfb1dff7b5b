import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledResidualAttention(nn.Module):
    """`self.scale` scales the residual branch (depth scaling), not the logits; the kernel keeps its default."""

    def __init__(self, dim, heads, depth):
        super().__init__()
        self.heads = heads
        self.scale = (2 * depth) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v)
        y = y.transpose(1, 2).reshape(B, N, D)
        return x + self.proj(y) * self.scale
