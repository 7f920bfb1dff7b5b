import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn

from attend import Attend


def exists(val):
    return val is not None


class Attention(nn.Module):
    def __init__(self, dim, causal=False, dim_head=64, heads=8, dropout=0.1, flash=False):
        super().__init__()
        self.heads = heads
        inner_dim = dim_head * heads
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, dim_head * 2, bias=False)
        self.attend = Attend(flash=flash, dropout=dropout, causal=causal)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, dim, bias=False), nn.Dropout(dropout))

    def forward(self, x, mask=None, attn_bias=None, return_kv_cache=False, kv_cache=None):
        x = self.norm(x)

        # multi-query attention: one key/value head shared by all query heads
        q, k, v = self.to_q(x), *self.to_kv(x).chunk(2, dim=-1)

        if exists(kv_cache):
            ck, cv = kv_cache
            k = torch.cat((ck, k), dim=-2)
            v = torch.cat((cv, v), dim=-2)

        if return_kv_cache:
            kv_cache = torch.stack((k, v))

        q = rearrange(q, 'b n (h d) -> b h n d', h=self.heads)

        out = self.attend(q, k, v, attn_bias=attn_bias, mask=mask)
        out = rearrange(out, 'b h n d -> b n (h d)')
        out = self.to_out(out)

        if not return_kv_cache:
            return out
        return out, kv_cache


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads, flash=False):
        super().__init__()
        self.layers = nn.ModuleList([Attention(dim, causal=True, heads=heads, flash=flash) for _ in range(depth)])

    def forward(self, x, kv_cache=None):
        new_kv_cache = []
        caches = kv_cache if exists(kv_cache) else [None] * len(self.layers)
        if exists(kv_cache):
            x = x[:, -1:]
        for attn, layer_cache in zip(self.layers, caches):
            out, layer_kv = attn(x, kv_cache=layer_cache, return_kv_cache=True)
            x = x + out
            new_kv_cache.append(layer_kv)
        return x, new_kv_cache
