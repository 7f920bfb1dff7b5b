# case: fill-memcompressed-neg-neg-inf
# modelled-on: lucidrains/memory-compressed-attention https://github.com/lucidrains/memory-compressed-attention/issues/2
# label: buggy
# pattern: a causal mask built with triu_(1) on a ones tensor (lucidrains style, mask created from the queries' length) and filled with -float('-inf'): a double negation that is +inf, hidden in an otherwise ordinary einsum attention
# why: -float('-inf') is +inf, so the future positions get +inf logits and softmax returns NaN (inf - inf) instead of hiding them; the fix (the linked commit) fills with float('-inf')
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, dim * 2, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        b, t, d, h = *x.shape, self.heads
        q = self.to_q(x)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        q, k, v = (z.reshape(b, t, h, d // h).transpose(1, 2) for z in (q, k, v))  # (b, h, t, dh)
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * (d // h) ** -0.5
        mask = torch.ones(t, t, device=x.device).triu_(1).bool()
        dots = dots.masked_fill(mask[None, None, ...], -float("-inf"))  # expect: ATT007
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(out.transpose(1, 2).reshape(b, t, d))
