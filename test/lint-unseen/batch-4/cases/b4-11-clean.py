# case: b4-11-clean
# modelled-on: lucidrains/perceiver-ar-pytorch https://github.com/lucidrains/perceiver-ar-pytorch/commit/f6005174e73f18d12d260dc80b6c907d67556db9
# label: correct
# class: clean
# pattern: Perceiver AR's causal prefix cross-attention: the queries are the last i positions only, the keys are the prefix concatenated with those positions (j = prefix + i), the queries are pre-scaled, a key mask for the prefix is padded with True over the sequence part and inverted for masked_fill, and the causal mask is `ones(i, j).triu(j - i + 1)`; heads are processed in chunks with einsum and a softmax over the last axis
# why: correct: triu with the diagonal offset j - i + 1 aligns the causal mask to the bottom right, so each query sees the whole prefix and the sequence up to itself; the context mask is a keep mask (True on real prefix tokens) and `~context_mask` selects what to hide
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/lucidrains/perceiver-ar-pytorch https://github.com/lucidrains/perceiver-ar-pytorch/commit/f6005174e73f18d12d260dc80b6c907d67556db9 perceiver_ar_pytorch/perceiver_ar_pytorch.py
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


class PrefixCausalCrossAttention(nn.Module):
    def __init__(self, *, dim, dim_head=64, heads=8, heads_per_chunk=2, dropout=0.0):
        super().__init__()
        self.scale = dim_head**-0.5
        self.heads = heads
        self.heads_per_chunk = heads_per_chunk
        inner = heads * dim_head
        self.norm = nn.LayerNorm(dim)
        self.prefix_norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(dropout)
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x, prefix, prefix_mask=None):
        # x: (b, i, dim) the latest positions; prefix: (b, p, dim); prefix_mask: (b, p), True on real tokens
        x = self.norm(x)
        prefix = self.prefix_norm(prefix)

        q = self.to_q(x)
        k_x, v_x = self.to_kv(x).chunk(2, dim=-1)
        k_p, v_p = self.to_kv(prefix).chunk(2, dim=-1)
        k = torch.cat((k_p, k_x), dim=1)  # (b, p + i, inner)
        v = torch.cat((v_p, v_x), dim=1)

        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), (q, k, v))
        q = q * self.scale

        i, j = q.shape[-2], k.shape[-2]
        neg = -torch.finfo(q.dtype).max

        if prefix_mask is not None:
            prefix_mask = F.pad(prefix_mask, (0, max(j - prefix_mask.shape[-1], 0)), value=True)
            prefix_mask = rearrange(prefix_mask, "b j -> b 1 1 j")

        future = torch.ones((i, j), device=x.device, dtype=torch.bool).triu(j - i + 1)

        outs = []
        for qc, kc, vc in zip(*(t.split(self.heads_per_chunk, dim=1) for t in (q, k, v))):
            sim = einsum("b h i d, b h j d -> b h i j", qc, kc)
            if prefix_mask is not None:
                sim = sim.masked_fill(~prefix_mask, neg)
            sim = sim.masked_fill(future, neg)
            attn = self.drop(sim.softmax(dim=-1))
            outs.append(einsum("b h i j, b h j d -> b h i d", attn, vc))

        out = rearrange(torch.cat(outs, dim=1), "b h n d -> b n (h d)")
        return self.to_out(out)
