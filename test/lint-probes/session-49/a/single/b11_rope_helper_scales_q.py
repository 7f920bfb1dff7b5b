import torch
import torch.nn as nn


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rope(x, cos, sin):
    return x * cos + rotate_half(x) * sin


class RopeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)

    def forward(self, x, cos, sin):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        q = apply_rope(q * self.dh ** -0.5, cos, sin)
        k = apply_rope(k, cos, sin)
        att = q @ k.transpose(-2, -1)
        att = att.masked_fill(torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
        att = att.softmax(dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, D)
