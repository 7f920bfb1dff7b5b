# case: t32y-03-clean
# modelled-on: swookey-thinky/mindiffusion https://github.com/swookey-thinky/mindiffusion/commit/8d3dabdfa07ab6e33fb39ac9a3f12a5fbb1514a2
# label: correct
# class: clean
# pattern: a diffusion course's multi-head cross-attention for a conditioned DDPM: bias-free q/k/v projections, rearrange "b n (h d) -> (b h) n d", sim = einsum("b i d, b j d -> b i j", q, k) * dim_head ** -0.5, softmax over dim=-1, einsum("b i j, b j d -> b i d") with the values; self-attention when no context is given
# why: correct: the einsum contracts d and leaves (i, j) = (query, key), so dim=-1 normalises over the context tokens and the second einsum sums over j; dim_head ** -0.5 is the per-head scale; there is no mask to apply
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/swookey-thinky/mindiffusion https://github.com/swookey-thinky/mindiffusion/commit/8d3dabdfa07ab6e33fb39ac9a3f12a5fbb1514a2 lesson_05/sublesson_d/attention.py
import torch
from einops import rearrange


class ContextAttention(torch.nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=8, dim_head=64, dropout=0.0):
        super().__init__()
        inner = dim_head * heads
        context_dim = query_dim if context_dim is None else context_dim
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.wq = torch.nn.Linear(query_dim, inner, bias=False)
        self.wk = torch.nn.Linear(context_dim, inner, bias=False)
        self.wv = torch.nn.Linear(context_dim, inner, bias=False)
        self.proj = torch.nn.Linear(inner, query_dim)
        self.drop = torch.nn.Dropout(dropout)

    def forward(self, x, context=None):
        ctx = x if context is None else context
        q, k, v = self.wq(x), self.wk(ctx), self.wv(ctx)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=self.heads) for t in (q, k, v))
        sim = torch.einsum("b i d, b j d -> b i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b i j, b j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=self.heads)
        return self.drop(self.proj(out))
