# case: b3-05-mask
# modelled-on: lucidrains/iTransformer https://github.com/lucidrains/iTransformer/commit/15cddb25b933a8f7d5fdd5c31f27ba8784b53392
# label: buggy
# class: real-bug
# pattern: an attention helper with two paths: SDPA with is_causal=self.causal when flash is on, and an einsum path that builds the causal mask as ones(i, j).triu(j - i + 1) (True above the diagonal = future) and fills it into the scores
# why: the einsum path fills ~causal_mask, i.e. it masks the past and the diagonal and lets every query attend only to the future, the opposite of its own flash path (is_causal=True); commit 15cddb2 ("fix causal mask") changed the fill to causal_mask
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
            sim = sim.masked_fill(~causal_mask, mask_value)  # expect: ATT002

        attn = sim.softmax(dim=-1)
        attn = attn.type(dtype)
        attn = self.attn_dropout(attn)
        return einsum("b h i j, b h j d -> b h i d", attn, v)
