import torch
import torch.nn as nn
from einops import rearrange


class MultiQueryAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(dim, heads * dim_head, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim_head, bias=False)
        self.to_out = nn.Linear(heads * dim_head, dim, bias=False)

    def forward(self, x):
        q = rearrange(self.to_q(x), "b n (h d) -> b h n d", h=self.heads)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        q = q * self.scale
        sim = torch.einsum("b h i d, b j d -> b h i j", q, k)
        causal = torch.ones(sim.shape[-2:], dtype=torch.bool, device=x.device).triu(1)
        sim = sim.masked_fill(causal, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
