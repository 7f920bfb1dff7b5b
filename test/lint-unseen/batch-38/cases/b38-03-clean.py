# case: b38-03-clean
# modelled-on: lucidrains/rela-transformer https://github.com/lucidrains/rela-transformer/commit/b58b121e59463b5c73fa5dea9297c841b1a3a362
# label: correct
# class: clean
# pattern: rectified linear attention (ReLA, Zhang et al. 2021): the softmax is replaced by a ReLU (optionally squared) of the scaled dot products, the result is renormalised by an RMS norm on the attended values instead of a sum-to-one; learned memory key/values are prepended to the keys; padding and causal masks are applied to the ReLU outputs by filling 0, with the causal triangle offset by the number of memory slots (triu(j - i + 1))
# why: correct: there is no softmax, so 0 is exactly the weight a masked position must get after the ReLU (a large negative fill would be wrong here); queries are scaled by dim_head ** -0.5 before the product; the causal mask is offset so the memory slots stay visible to every query
# looks-like: ATT002, ATT003, ATT006, ATT007, ATT008
# source: https://github.com/lucidrains/rela-transformer https://github.com/lucidrains/rela-transformer/commit/b58b121e59463b5c73fa5dea9297c841b1a3a362 rela_transformer/rela_transformer.py
import torch
import torch.nn.functional as F
from torch import nn, einsum
from einops import rearrange, repeat


class GatedRMS(nn.Module):
    def __init__(self, dim, eps=1e-8):
        super().__init__()
        self.root = dim ** -0.5
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.gate = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        rms = x.norm(dim=-1, keepdim=True) * self.root
        normed = x / rms.clamp(min=self.eps) * self.weight
        return normed * (x * self.gate).sigmoid()


class RectifiedAttention(nn.Module):
    def __init__(self, *, dim, heads=8, dim_head=64, causal=True, memory_slots=0, squared=False):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.causal = causal
        self.squared = squared
        self.memory_slots = memory_slots
        self.scale = dim_head ** -0.5
        self.pre_norm = GatedRMS(dim)
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.memory_k = nn.Parameter(torch.randn(memory_slots, inner))
        self.memory_v = nn.Parameter(torch.randn(memory_slots, inner))
        self.value_norm = GatedRMS(dim_head)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x, mask=None):
        batch = x.shape[0]
        x = self.pre_norm(x)
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)

        mem_k = repeat(self.memory_k, 'n d -> b n d', b=batch)
        mem_v = repeat(self.memory_v, 'n d -> b n d', b=batch)
        k = torch.cat((mem_k, k), dim=1)
        v = torch.cat((mem_v, v), dim=1)

        q, k, v = (rearrange(t, 'b n (h d) -> b h n d', h=self.heads) for t in (q, k, v))
        q = q * self.scale
        sim = einsum('b h i d, b h j d -> b h i j', q, k)

        weights = F.relu(sim)
        if self.squared:
            weights = weights ** 2

        if mask is not None:
            mask = F.pad(mask, (self.memory_slots, 0), value=True)
            weights = weights.masked_fill(~rearrange(mask, 'b j -> b 1 1 j'), 0.)

        if self.causal:
            i, j = weights.shape[-2:]
            future = torch.ones(i, j, device=x.device).triu_(j - i + 1).bool()
            weights = weights.masked_fill(future, 0.)

        out = einsum('b h i j, b h j d -> b h i d', weights, v)
        out = self.value_norm(out)
        return self.to_out(rearrange(out, 'b h n d -> b n (h d)'))


class RectifiedBlock(nn.Module):
    def __init__(self, dim, **attn_kwargs):
        super().__init__()
        self.attn = RectifiedAttention(dim=dim, **attn_kwargs)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))

    def forward(self, x, mask=None):
        x = self.attn(x, mask=mask) + x
        return self.ff(x) + x
