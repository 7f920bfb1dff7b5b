import torch
from torch import nn, einsum


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=8, dim_head=64):
        super().__init__()
        inner_dim = dim_head * heads
        context_dim = context_dim or query_dim
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_k = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_v = nn.Linear(context_dim, inner_dim, bias=False)

    def forward(self, x, context=None):
        h = self.heads
        context = x if context is None else context
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        b, n, _ = q.shape
        q, k, v = (t.reshape(b, -1, h, t.shape[-1] // h).permute(0, 2, 1, 3).reshape(b * h, -1, t.shape[-1] // h) for t in (q, k, v))
        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        return einsum("b i j, b j d -> b i d", attn, v)


class Block(nn.Module):
    def __init__(self, dim, n_heads, d_head):
        super().__init__()
        self.attn1 = Attention(query_dim=dim, heads=n_heads, dim_head=d_head)
        self.attn2 = Attention(query_dim=dim, context_dim=768, heads=n_heads, dim_head=d_head)

    def forward(self, x, ctx):
        return self.attn2(self.attn1(x), ctx)
