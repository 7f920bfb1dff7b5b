# case: b4-12-clean
# modelled-on: lucidrains/MEGABYTE-pytorch https://github.com/lucidrains/MEGABYTE-pytorch/commit/21eec73ae6e9268ad5b77be3c5dd5cbd7daeaa4d
# label: correct
# class: clean
# pattern: a byte-level hierarchical transformer whose attention modules delegate to an Attend helper in attend.py: the helper either calls SDPA with is_causal=self.causal (flash path, single-headed keys broadcast with rearrange) or computes einsum scores with a q.shape[-1] ** -0.5 scale and a bottom-right triu(j - i + 1) mask; the model's attention projects q per head and one shared k/v (multi-query) and always attends over its own input, with no key/value cache
# why: correct: without a cache the query and key lengths are equal, so SDPA's top-left causal alignment and the slow path's triu(j - i + 1) agree; the scale is SDPA's default on the flash path and applied once on the slow path
# looks-like: ATT003, ATT004, ATT008
# source: https://github.com/lucidrains/MEGABYTE-pytorch https://github.com/lucidrains/MEGABYTE-pytorch/commit/21eec73ae6e9268ad5b77be3c5dd5cbd7daeaa4d MEGABYTE_pytorch/megabyte.py
from einops import rearrange
from torch import nn

from .attend import Attend


class Attention(nn.Module):
    def __init__(self, *, dim, dim_head=64, heads=8, dropout=0.0, flash=False):
        super().__init__()
        self.heads = heads
        inner = dim_head * heads
        self.attend = Attend(causal=True, flash=flash, dropout=dropout)
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, dim_head * 2, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)

    def forward(self, x):
        x = self.norm(x)
        q, k, v = (self.to_q(x), *self.to_kv(x).chunk(2, dim=-1))
        q = rearrange(q, "b n (h d) -> b h n d", h=self.heads)  # k, v stay (b, n, d)
        out = self.attend(q, k, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class Transformer(nn.Module):
    def __init__(self, *, dim, layers, dim_head=64, heads=8, flash=False):
        super().__init__()
        self.layers = nn.ModuleList(
            [
                nn.ModuleList([Attention(dim=dim, dim_head=dim_head, heads=heads, flash=flash), nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))])
                for _ in range(layers)
            ]
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        return self.norm(x)
