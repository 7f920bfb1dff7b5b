# case: postmask-timm-eva-fill-after-softmax
# modelled-on: huggingface/pytorch-image-models https://github.com/huggingface/pytorch-image-models/pull/2236
# label: buggy
# pattern: EVA attention's non-fused path (used when fused attention is off) computes softmax and only then fills masked positions with -inf; the fused path passes the same keep mask to SDPA correctly
# why: after the softmax the weights were already normalised over padded tokens, and the -inf weights then turn attn @ v into -inf/NaN for every masked row
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class EvaAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int = 8, qkv_bias: bool = True, attn_drop: float = 0.0, proj_drop: float = 0.0, fused_attn: bool = True):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = head_dim ** -0.5
        self.fused_attn = fused_attn
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.norm = nn.Identity()
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x: torch.Tensor, attn_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        # attn_mask: (B, N) with 1 / True = keep
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)  # (B, H, N, hd)

        if self.fused_attn:
            mask = attn_mask.to(torch.bool)[:, None, None, :] if attn_mask is not None else None
            x = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=self.attn_drop.p if self.training else 0.0)
        else:
            q = q * self.scale
            attn = q @ k.transpose(-2, -1)
            attn = attn.softmax(dim=-1)
            if attn_mask is not None:
                attn_mask = attn_mask.to(torch.bool)
                attn = attn.masked_fill(~attn_mask[:, None, None, :], float("-inf"))  # expect: ATT006
            attn = self.attn_drop(attn)
            x = attn @ v

        x = x.transpose(1, 2).reshape(B, N, C)
        x = self.norm(x)
        return self.proj_drop(self.proj(x))
