# case: mask-perceiver-latent-cross-attention
# modelled-on: lucidrains/perceiver-pytorch https://github.com/lucidrains/perceiver-pytorch/blob/main/perceiver_pytorch/perceiver_pytorch.py
# label: correct
# pattern: Perceiver: a small learned latent array cross-attends to a long input array (queries from latents, keys/values from data), then latent self-attention; the data mask (True = real input) is flattened over any number of axes, repeated per head and applied with ~mask
# why: queries (latents) and keys (inputs) have different lengths and the mask is on the key axis, True = keep, so ~mask picks exactly the padded inputs; -finfo.max is dtype-safe and the latents never see a fully masked row as long as one input is real
# looks-like: ATT002, ATT007
from functools import wraps

import torch
from torch import nn, einsum
import torch.nn.functional as F

from einops import rearrange, repeat


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


class PreNorm(nn.Module):
    def __init__(self, dim, fn, context_dim = None):
        super().__init__()
        self.fn = fn
        self.norm = nn.LayerNorm(dim)
        self.norm_context = nn.LayerNorm(context_dim) if exists(context_dim) else None

    def forward(self, x, **kwargs):
        x = self.norm(x)

        if exists(self.norm_context):
            context = kwargs['context']
            normed_context = self.norm_context(context)
            kwargs.update(context = normed_context)

        return self.fn(x, **kwargs)


class GEGLU(nn.Module):
    def forward(self, x):
        x, gates = x.chunk(2, dim = -1)
        return x * F.gelu(gates)


class FeedForward(nn.Module):
    def __init__(self, dim, mult = 4, dropout = 0.):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, dim * mult * 2),
            GEGLU(),
            nn.Linear(dim * mult, dim),
            nn.Dropout(dropout)
        )

    def forward(self, x):
        return self.net(x)


class Attention(nn.Module):
    def __init__(self, query_dim, context_dim = None, heads = 8, dim_head = 64, dropout = 0.):
        super().__init__()
        inner_dim = dim_head * heads
        context_dim = default(context_dim, query_dim)

        self.scale = dim_head ** -0.5
        self.heads = heads

        self.to_q = nn.Linear(query_dim, inner_dim, bias = False)
        self.to_kv = nn.Linear(context_dim, inner_dim * 2, bias = False)

        self.dropout = nn.Dropout(dropout)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(self, x, context = None, mask = None):
        h = self.heads

        q = self.to_q(x)
        context = default(context, x)
        k, v = self.to_kv(context).chunk(2, dim = -1)

        q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> (b h) n d', h = h), (q, k, v))

        sim = einsum('b i d, b j d -> b i j', q, k) * self.scale

        if exists(mask):
            mask = rearrange(mask, 'b ... -> b (...)')
            max_neg_value = -torch.finfo(sim.dtype).max
            mask = repeat(mask, 'b j -> (b h) () j', h = h)
            sim.masked_fill_(~mask, max_neg_value)

        # attention, what we cannot get enough of
        attn = sim.softmax(dim = -1)
        attn = self.dropout(attn)

        out = einsum('b i j, b j d -> b i d', attn, v)
        out = rearrange(out, '(b h) n d -> b n (h d)', h = h)
        return self.to_out(out)


class PerceiverBlock(nn.Module):
    def __init__(self, input_dim, latent_dim, num_latents, cross_heads = 1, latent_heads = 8,
                 cross_dim_head = 64, latent_dim_head = 64, self_per_cross_attn = 1):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim))
        self.cross_attn = PreNorm(latent_dim, Attention(latent_dim, input_dim, heads = cross_heads, dim_head = cross_dim_head), context_dim = input_dim)
        self.cross_ff = PreNorm(latent_dim, FeedForward(latent_dim))
        self.self_attns = nn.ModuleList([
            nn.ModuleList([
                PreNorm(latent_dim, Attention(latent_dim, heads = latent_heads, dim_head = latent_dim_head)),
                PreNorm(latent_dim, FeedForward(latent_dim))
            ]) for _ in range(self_per_cross_attn)
        ])

    def forward(self, data, mask = None):
        b = data.shape[0]
        x = repeat(self.latents, 'n d -> b n d', b = b)

        # cross attention only happens once for Perceiver IO
        x = self.cross_attn(x, context = data, mask = mask) + x
        x = self.cross_ff(x) + x

        for self_attn, self_ff in self.self_attns:
            x = self_attn(x) + x
            x = self_ff(x) + x

        return x
