# case: b43-05-clean
# modelled-on: lucidrains/gigagan-pytorch https://github.com/lucidrains/gigagan-pytorch/commit/0806433f1e8eadbe888162b5c5a5ab625ce4e0a5
# label: correct
# class: clean
# pattern: text-conditioned GAN attention over feature maps (a folder: the attention modules and the text encoder that builds the text mask): the text encoder marks a token as real when its CLIP encoding is not all zeros, pads the mask with True for a learned global token, and returns it; image self-attention flattens (x, y) into the sequence, prepends a learned null key / value and scores with the negative squared L2 distance |q|^2 + |k|^2 - 2 q.k (or the dot product) times dim_head ** -0.5, softmax over the keys; cross-attention from pixels to text tokens scores q.k times dim_head ** -0.5, repeats the (b, j) text mask per head to ((b h), 1, j) and fills ~mask with -finfo.max before the softmax
# why: correct: the text mask is True on real tokens, so ~mask selects the padding tokens; the -L2 similarity is a legitimate attention score (larger when closer), scaled per head; the null key gives every query somewhere to attend; -finfo(dtype).max masks in any dtype; the softmax runs over j, the key axis, in both modules
# looks-like: ATT002, ATT003, ATT005, ATT007
# source: https://github.com/lucidrains/gigagan-pytorch https://github.com/lucidrains/gigagan-pytorch/commit/0806433f1e8eadbe888162b5c5a5ab625ce4e0a5 gigagan_pytorch/gigagan_pytorch.py
import torch
from einops import rearrange, repeat
from torch import einsum, nn


class PixelSelfAttention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, dot_product=False):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner = dim_head * heads
        self.dot_product = dot_product
        self.norm = nn.GroupNorm(1, dim)
        self.q = nn.Conv2d(dim, inner, 1, bias=False)
        self.k = nn.Conv2d(dim, inner, 1, bias=False) if dot_product else None
        self.v = nn.Conv2d(dim, inner, 1, bias=False)
        self.null_kv = nn.Parameter(torch.randn(2, heads, dim_head))
        self.out = nn.Conv2d(inner, dim, 1, bias=False)

    def forward(self, fmap):
        b, _, x, y = fmap.shape
        fmap = self.norm(fmap)
        q, v = self.q(fmap), self.v(fmap)
        k = self.k(fmap) if self.k is not None else q
        q, k, v = (rearrange(t, "b (h d) x y -> (b h) (x y) d", h=self.heads) for t in (q, k, v))

        nk, nv = (repeat(t, "h d -> (b h) 1 d", b=b) for t in self.null_kv)
        k, v = torch.cat((nk, k), dim=-2), torch.cat((nv, v), dim=-2)

        dots = einsum("b i d, b j d -> b i j", q, k)
        if self.dot_product:
            sim = dots
        else:
            q_sq = (q * q).sum(dim=-1)[:, :, None]
            k_sq = (k * k).sum(dim=-1)[:, None, :]
            sim = -(q_sq + k_sq - 2 * dots)
        attn = (sim * self.scale).softmax(dim=-1)

        out = einsum("b i j, b j d -> b i d", attn, v)
        return self.out(rearrange(out, "(b h) (x y) d -> b (h d) x y", h=self.heads, x=x, y=y))


class PixelToTextAttention(nn.Module):
    def __init__(self, dim, dim_context, dim_head=64, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner = dim_head * heads
        self.norm = nn.GroupNorm(1, dim)
        self.norm_context = nn.LayerNorm(dim_context)
        self.q = nn.Conv2d(dim, inner, 1, bias=False)
        self.kv = nn.Linear(dim_context, inner * 2, bias=False)
        self.out = nn.Conv2d(inner, dim, 1, bias=False)

    def forward(self, fmap, text, text_mask=None):
        _, _, x, y = fmap.shape
        q = rearrange(self.q(self.norm(fmap)), "b (h d) x y -> (b h) (x y) d", h=self.heads)
        k, v = self.kv(self.norm_context(text)).chunk(2, dim=-1)
        k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=self.heads) for t in (k, v))

        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        if text_mask is not None:
            keep = repeat(text_mask, "b j -> (b h) 1 j", h=self.heads)
            sim = sim.masked_fill(~keep, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)

        out = einsum("b i j, b j d -> b i d", attn, v)
        return self.out(rearrange(out, "(b h) (x y) d -> b (h d) x y", h=self.heads, x=x, y=y))
