import math
import torch
import torch.nn as nn


class DiffAttention(nn.Module):
    """Differential attention: two softmax maps, the second subtracted with a learned lambda."""

    def __init__(self, dim, heads, depth):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads // 2
        self.scaling = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.lambda_init = 0.8 - 0.6 * math.exp(-0.3 * depth)
        self.lambda_q1 = nn.Parameter(torch.zeros(self.head_dim))
        self.lambda_k1 = nn.Parameter(torch.zeros(self.head_dim))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, N, 2 * self.heads, self.head_dim).transpose(1, 2)
        k = k.view(B, N, 2 * self.heads, self.head_dim).transpose(1, 2)
        v = v.view(B, N, self.heads, 2 * self.head_dim).transpose(1, 2)
        attn = torch.softmax(q @ k.transpose(-1, -2) * self.scaling, dim=-1)
        attn = attn.view(B, self.heads, 2, N, N)
        lambda_full = torch.exp(torch.sum(self.lambda_q1 * self.lambda_k1)) + self.lambda_init
        attn = attn[:, :, 0] - lambda_full * attn[:, :, 1]
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
