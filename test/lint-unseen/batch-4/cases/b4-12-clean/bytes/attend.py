import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


class Attend(nn.Module):
    def __init__(self, causal=False, dropout=0.0, flash=False):
        super().__init__()
        self.dropout = dropout
        self.attn_dropout = nn.Dropout(dropout)
        self.causal = causal
        self.flash = flash

    def future_mask(self, i, j, device):
        # True where a query must not look: above the diagonal, aligned to the last key
        return torch.ones((i, j), device=device, dtype=torch.bool).triu(j - i + 1)

    def flash_attn(self, q, k, v):
        # single-headed keys / values are broadcast over the heads
        if k.ndim == 3:
            k = rearrange(k, "b n d -> b 1 n d")
        if v.ndim == 3:
            v = rearrange(v, "b n d -> b 1 n d")
        return F.scaled_dot_product_attention(
            q, k, v, dropout_p=self.dropout if self.training else 0.0, is_causal=self.causal
        )

    def forward(self, q, k, v):
        # q: (b, h, i, d); k, v: (b, j, d) or (b, h, j, d)
        if self.flash:
            return self.flash_attn(q, k, v)
        kv_eq = "b j d" if k.ndim == 3 else "b h j d"
        scale = q.shape[-1] ** -0.5
        sim = einsum(f"b h i d, {kv_eq} -> b h i j", q, k) * scale
        if self.causal:
            sim = sim.masked_fill(self.future_mask(q.shape[-2], k.shape[-2], q.device), -torch.finfo(sim.dtype).max)
        attn = self.attn_dropout(sim.softmax(dim=-1))
        return einsum(f"b h i j, {kv_eq} -> b h i d", attn, v)
