# case: scale-timm-mqa-v2-scale-applied
# modelled-on: huggingface/pytorch-image-models https://github.com/huggingface/pytorch-image-models/commit/6171e756d33b170b2cc2f55704066fc5e53edfd3
# label: correct
# pattern: multi-query attention for NCHW maps written as einsums over projection parameters (q per head 'bnd,hkd->bnhk', one shared key 'bmd,dk->bmk'); the constructor computes self.scale = key_dim ** -0.5
# why: the fixed form: the logits are multiplied by self.scale = key_dim ** -0.5, key_dim being the width each query head and the shared key are contracted over
# looks-like: ATT003, ATT004
from typing import Optional

import torch
from torch import nn


class MultiQueryAttentionV2(nn.Module):
    """Multi-query attention (one shared key and value head) over 2D feature maps."""

    def __init__(self, dim: int, dim_out: Optional[int] = None, num_heads: int = 8, key_dim: int = 64, value_dim: int = 64, attn_drop: float = 0.0):
        super().__init__()
        dim_out = dim_out or dim
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.value_dim = value_dim
        self.scale = key_dim ** -0.5
        self.query_proj = nn.Parameter(torch.randn([self.num_heads, self.key_dim, dim]))
        self.key_proj = nn.Parameter(torch.randn([dim, self.key_dim]))
        self.value_proj = nn.Parameter(torch.randn([dim, self.value_dim]))
        self.out_proj = nn.Parameter(torch.randn([dim_out, self.num_heads, self.value_dim]))
        self.attn_drop = nn.Dropout(attn_drop)

    def _reshape_input(self, t):
        # (B, C, H, W) -> (B, H * W, C)
        s = t.shape
        return t.reshape(s[0], s[1], -1).transpose(1, 2)

    def forward(self, x, m: Optional[torch.Tensor] = None):
        b, _, h, w = x.shape
        m = m if m is not None else x
        reshaped_x = self._reshape_input(x)
        reshaped_m = self._reshape_input(m)

        q = torch.einsum('bnd,hkd->bnhk', reshaped_x, self.query_proj)
        k = torch.einsum('bmd,dk->bmk', reshaped_m, self.key_proj)
        attn = torch.einsum('bnhk,bmk->bnhm', q, k) * self.scale
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)

        v = torch.einsum('bmd,dv->bmv', reshaped_m, self.value_proj)
        o = torch.einsum('bnhm,bmv->bnhv', attn, v)
        result = torch.einsum('bnhv,dhv->bdn', o, self.out_proj)
        return result.reshape(b, -1, h, w)
