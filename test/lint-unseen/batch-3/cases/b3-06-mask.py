# case: b3-06-mask
# modelled-on: lucidrains/iTransformer https://github.com/lucidrains/iTransformer/commit/15cddb25b933a8f7d5fdd5c31f27ba8784b53392
# label: correct
# class: fixed
# pattern: the same attention helper after the fix: SDPA with is_causal=self.causal on the flash path, and on the einsum path a causal mask ones(i, j).triu(j - i + 1) (True = future) filled where True
# why: both paths mask the future (commit 15cddb2); the queries and keys always have one length (no cache), so is_causal's top-left alignment is right
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/lucidrains/iTransformer https://github.com/lucidrains/iTransformer/commit/15cddb25b933a8f7d5fdd5c31f27ba8784b53392 iTransformer/attend.py
import torch
import torch.nn.functional as F
from torch import einsum, nn


def default(val, d):
    return val if val is not None else d


class Attend(nn.Module):
    def __init__(self, *, dropout=0.0, scale=None, flash=False, causal=False):
        super().__init__()
        self.scale = scale
        self.dropout = dropout
        self.attn_dropout = nn.Dropout(dropout)
        self.causal = causal
        self.flash = flash

    def flash_attn(self, q, k, v):
        # pytorch 2.0 flash attn: q, k, v, mask, dropout, causal, softmax_scale
        return F.scaled_dot_product_attention(
            q,
            k,
            v,
            is_causal=self.causal,
            dropout_p=self.dropout if self.training else 0.0,
        )

    def forward(self, q, k, v):
        """
        b - batch, h - heads, i / j - query / key positions, d - head dimension
        """
        device, dtype = q.device, q.dtype
        scale = default(self.scale, q.shape[-1] ** -0.5)

        if self.flash:
            return self.flash_attn(q, k, v)

        sim = einsum("b h i d, b h j d -> b h i j", q, k) * scale

        if self.causal:
            i, j = sim.shape[-2:]
            mask_value = -torch.finfo(sim.dtype).max
            causal_mask = torch.ones((i, j), dtype=torch.bool, device=device).triu(j - i + 1)
            sim = sim.masked_fill(causal_mask, mask_value)

        attn = sim.softmax(dim=-1)
        attn = attn.type(dtype)
        attn = self.attn_dropout(attn)
        return einsum("b h i j, b h j d -> b h i d", attn, v)
