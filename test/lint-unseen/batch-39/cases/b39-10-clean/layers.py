import torch
from einops import rearrange
from torch import einsum, nn


class SharedKVAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, dropout=0.1, causal=False):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.causal = causal
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, heads * dim_head, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim_head, bias=False)
        self.drop = nn.Dropout(dropout)
        self.to_out = nn.Sequential(nn.Linear(heads * dim_head, dim, bias=False), nn.Dropout(dropout))

    def forward(self, x, key_mask=None, attn_mask=None):
        x = self.norm(x)
        q = rearrange(self.to_q(x), "b n (h d) -> b h n d", h=self.heads) * self.scale
        k, v = self.to_kv(x).chunk(2, dim=-1)                  # one key/value head for all query heads

        sim = einsum("b h i d, b j d -> b h i j", q, k)
        floor = -torch.finfo(sim.dtype).max
        if attn_mask is not None:
            sim = sim.masked_fill(~attn_mask, floor)
        if key_mask is not None:
            sim = sim.masked_fill(~rearrange(key_mask, "b j -> b 1 1 j"), floor)
        if self.causal:
            i, j = sim.shape[-2:]
            sim = sim.masked_fill(torch.ones((i, j), dtype=torch.bool, device=x.device).triu(j - i + 1), floor)

        weights = self.drop(sim.softmax(dim=-1))
        out = einsum("b h i j, b j d -> b h i d", weights, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class FrameTransformer(nn.Module):
    def __init__(self, dim, depth=6, heads=8, dim_head=64):
        super().__init__()
        self.layers = nn.ModuleList(
            nn.ModuleList([
                SharedKVAttention(dim, heads=heads, dim_head=dim_head),
                nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)),
            ])
            for _ in range(depth)
        )

    def forward(self, x, attn_mask=None):
        for attn, ff in self.layers:
            x = x + attn(x, attn_mask=attn_mask)
            x = x + ff(x)
        return x
