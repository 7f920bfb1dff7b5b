# case: b3-26-clean
# modelled-on: lucidrains/speculative-decoding https://github.com/lucidrains/speculative-decoding/commit/72171ac91cd040ad6b67c186ac985e4f50a0c269
# label: correct
# class: clean
# pattern: a causal attention layer for speculative decoding with a key/value cache: cached keys are concatenated in front of the new ones (the verify step feeds several new tokens at once), the causal mask is ones(i, j).triu(j - i + 1) filled where True, and a key padding mask (True = attend) is filled where False; the new cache is returned
# why: triu(j - i + 1) aligns the causal mask bottom-right, so with i new queries at the end of j keys each query sees the whole cache plus the new keys up to itself; no is_causal flag is involved; -finfo.max is safe in any dtype
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/lucidrains/speculative-decoding https://github.com/lucidrains/speculative-decoding/commit/72171ac91cd040ad6b67c186ac985e4f50a0c269 speculative_decoding/speculative_decoding.py
import torch
from einops import rearrange
from torch import einsum, nn


class CausalAttention(nn.Module):
    def __init__(self, dim, *, dim_head=64, heads=8):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        dim_inner = dim_head * heads
        self.norm = nn.RMSNorm(dim)
        self.to_qkv = nn.Linear(dim, dim_inner * 3, bias=False)
        self.to_out = nn.Linear(dim_inner, dim, bias=False)

    def forward(self, x, cache=None, context_mask=None):
        h, device = self.heads, x.device
        x = self.norm(x)
        q, k, v = rearrange(self.to_qkv(x), "b n (qkv h d) -> qkv b h n d", qkv=3, h=h)

        if cache is not None:
            ck, cv = cache.unbind(dim=1)
            k = torch.cat((ck, k), dim=-2)
            v = torch.cat((cv, v), dim=-2)
        cached_kv = torch.stack((k, v), dim=1)

        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale

        i, j = sim.shape[-2:]
        causal_mask = torch.ones((i, j), device=device, dtype=torch.bool).triu(j - i + 1)
        sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)

        if context_mask is not None:
            context_mask = rearrange(context_mask, "b j -> b 1 1 j")
            sim = sim.masked_fill(~context_mask, -torch.finfo(sim.dtype).max)

        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out), cached_kv
