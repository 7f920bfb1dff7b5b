import torch
from torch import einsum, nn


class MultiQueryAttention(nn.Module):
    """One key/value head shared by all query heads."""

    def __init__(self, dim, dim_head=64, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(dim, dim_head * heads, bias=False)
        self.to_kv = nn.Linear(dim, dim_head * 2, bias=False)

    def forward(self, x):
        b, n, _ = x.shape
        q = self.to_q(x).view(b, n, self.heads, -1).transpose(1, 2)  # (b, h, n, d)
        k, v = self.to_kv(x).chunk(2, dim=-1)  # (b, n, d)
        q = q * self.scale
        sim = einsum("b h i d, b j d -> b h i j", q, k)
        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b j d -> b h i d", attn, v)
        return out.transpose(1, 2).reshape(b, n, -1)
