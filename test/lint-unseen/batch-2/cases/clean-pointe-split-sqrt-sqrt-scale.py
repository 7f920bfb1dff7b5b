# case: clean-pointe-split-sqrt-sqrt-scale
# modelled-on: openai/point-e https://github.com/openai/point-e/issues/75
# label: correct
# class: clean
# pattern: fused qkv projection viewed as (bs, n_ctx, heads, 3 * attn_ch) and split on the last axis; the scale 1 / sqrt(sqrt(attn_ch)) is applied to both q and k inside the einsum; the softmax is taken in float32 and cast back to the half-precision weight dtype
# why: q * s and k * s with s = attn_ch ** -0.25 multiply the logits by attn_ch ** -0.5, the usual 1/sqrt(d) (the question of issue #75; the code's comment gives the reason, stability in f16); the split gives per-head channels, so attn_ch is the head dimension
# looks-like: ATT003, ATT004
# source: https://github.com/openai/point-e https://github.com/openai/point-e/issues/75 point_e/models/transformer.py
import math

import torch
import torch.nn as nn


class FusedQKVAttention(nn.Module):
    def __init__(self, *, heads: int, n_ctx: int):
        super().__init__()
        self.heads = heads
        self.n_ctx = n_ctx

    def forward(self, qkv: torch.Tensor) -> torch.Tensor:
        bs, n_ctx, width = qkv.shape
        attn_ch = width // self.heads // 3
        scale = 1 / math.sqrt(math.sqrt(attn_ch))
        qkv = qkv.view(bs, n_ctx, self.heads, -1)  # (bs, n_ctx, heads, 3 * attn_ch)
        q, k, v = torch.split(qkv, attn_ch, dim=-1)  # each (bs, n_ctx, heads, attn_ch)
        weight = torch.einsum("bthc,bshc->bhts", q * scale, k * scale)  # more stable in f16 than dividing afterwards
        wdtype = weight.dtype
        weight = torch.softmax(weight.float(), dim=-1).type(wdtype)  # (bs, heads, t, s)
        return torch.einsum("bhts,bshc->bthc", weight, v).reshape(bs, n_ctx, -1)


class SelfAttentionBlock(nn.Module):
    def __init__(self, *, n_ctx: int, width: int, heads: int, dtype: torch.dtype = torch.float16):
        super().__init__()
        self.c_qkv = nn.Linear(width, width * 3, dtype=dtype)
        self.c_proj = nn.Linear(width, width, dtype=dtype)
        self.attention = FusedQKVAttention(heads=heads, n_ctx=n_ctx)
        self.ln = nn.LayerNorm(width, dtype=dtype)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.c_proj(self.attention(self.c_qkv(self.ln(x))))
