import torch
import torch.nn as nn


class LayerScaleAttention(nn.Module):
    def __init__(self, dim, heads, init_values=1e-5):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.gamma_scale = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5).softmax(-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return x + self.proj(out) * self.gamma_scale
