import torch
import torch.nn as nn


class HeadScaledAttn(nn.Module):
    """NormFormer-style head scaling applied to each head's output."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.head_scale = nn.Parameter(torch.ones(1, heads, 1, 1))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5).softmax(-1)
        out = (attn @ v) * self.head_scale
        return out.transpose(1, 2).reshape(B, N, C)
