# case: scale-timm-attention2d-num-heads
# modelled-on: huggingface/pytorch-image-models https://github.com/huggingface/pytorch-image-models/commit/2d734d90589d2275676a3b42da4ff1b0938291be
# label: buggy
# pattern: multi-head attention on NCHW maps with channels-first heads (B, heads, dim_head, N) from a 1x1 conv; a fused SDPA path (its default scale) and an unfused path that scales q by self.scale and forms q^T @ k
# why: self.scale = num_heads ** -0.5 is built from the number of heads, not the head width, so the unfused path disagrees with the fused one (which divides by sqrt(dim_head)); fixed in "Fixed unfused attn2d scale" (`q @ k * q.size(-1) ** -0.5`)
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


class Attention2d(nn.Module):
    """Multi-head attention for 2D NCHW tensors."""

    def __init__(self, dim: int, dim_out: Optional[int] = None, num_heads: int = 32, bias: bool = True, attn_drop: float = 0.0, fused_attn: bool = True):
        super().__init__()
        dim_out = dim_out or dim
        self.num_heads = num_heads
        self.dim_head = dim // num_heads
        self.scale = num_heads ** -0.5
        self.fused_attn = fused_attn
        self.qkv = nn.Conv2d(dim, dim * 3, 1, bias=bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Conv2d(dim, dim_out, 1, bias=bias)

    def forward(self, x, attn_mask: Optional[torch.Tensor] = None):
        B, C, H, W = x.shape
        # each of q, k, v: (B, heads, dim_head, H * W)
        q, k, v = self.qkv(x).reshape(B, 3, self.num_heads, self.dim_head, -1).unbind(1)

        if self.fused_attn:
            x = F.scaled_dot_product_attention(
                q.transpose(-1, -2).contiguous(),
                k.transpose(-1, -2).contiguous(),
                v.transpose(-1, -2).contiguous(),
                attn_mask=attn_mask,
                dropout_p=self.attn_drop.p if self.training else 0.0,
            ).transpose(-1, -2).reshape(B, -1, H, W)
        else:
            q = q * self.scale  # expect: ATT004
            attn = q.transpose(-2, -1) @ k
            if attn_mask is not None:
                # a float mask, added
                attn = attn + attn_mask
            attn = attn.softmax(dim=-1)
            attn = self.attn_drop(attn)
            x = (v @ attn.transpose(-2, -1)).view(B, -1, H, W)
        return self.proj(x)
