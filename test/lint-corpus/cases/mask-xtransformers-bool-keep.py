# case: mask-xtransformers-bool-keep
# modelled-on: lucidrains/x-transformers https://github.com/lucidrains/x-transformers/issues/253
# label: correct
# pattern: x-transformers convention: `mask` is (B, S) with True = attend; the attention fills ~mask with -finfo(dtype).max, and a causal mask is built with triu(1) then filled where True
# why: the library's masks are keep masks and they are inverted (or used as "ignore" masks) right where they are filled; finfo(dtype).max fits every dtype
# looks-like: ATT002, ATT007
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


def max_neg_value(t: torch.Tensor) -> float:
    return -torch.finfo(t.dtype).max


class Attention(nn.Module):
    def __init__(self, dim: int, dim_head: int = 64, heads: int = 8, causal: bool = False):
        super().__init__()
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.causal = causal
        inner_dim = dim_head * heads
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x, context=None, mask=None):
        # mask: (B, S) bool, True = attend
        h = self.heads
        kv_input = x if context is None else context
        q = self.to_q(x)
        k, v = self.to_kv(kv_input).chunk(2, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=h), (q, k, v))

        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        mask_value = max_neg_value(sim)
        if mask is not None:
            sim = sim.masked_fill(~rearrange(mask, "b j -> b 1 1 j"), mask_value)
        if self.causal:
            i, j = sim.shape[-2:]
            causal_mask = torch.ones((i, j), dtype=torch.bool, device=x.device).triu(j - i + 1)
            sim = sim.masked_fill(causal_mask, mask_value)

        attn = F.softmax(sim, dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
