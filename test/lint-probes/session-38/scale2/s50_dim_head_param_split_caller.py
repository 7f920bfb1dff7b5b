import torch
import torch.nn as nn


def attend(q, k, v, dim):
    # q, k, v: (B, H, N, dim) -- dim is each head's width here
    return torch.softmax(q @ k.transpose(-1, -2) * dim ** -0.5, dim=-1) @ v


class Attn(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        return attend(q, k, v, C // self.n_heads)
