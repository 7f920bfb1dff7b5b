# case: postmask-timm-eva-fill-before-softmax
# modelled-on: huggingface/pytorch-image-models https://github.com/huggingface/pytorch-image-models/pull/2236
# label: correct
# pattern: the fix: the keep mask is inverted and filled with -inf on the scaled scores before softmax; the fused path hands the bool keep mask to SDPA, and a rotary/relative bias is added first
# why: masking before the softmax removes padded keys from the normalisation; SDPA's boolean mask means True = attend; a row is only all -inf if a sample has no tokens at all, which the model never receives
# looks-like: ATT002, ATT007
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class EvaAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int = 8, qkv_bias: bool = True, attn_drop: float = 0.0, fused_attn: bool = True):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.fused_attn = fused_attn
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, rel_pos_bias: Optional[torch.Tensor] = None, attn_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4).unbind(0)
        if self.fused_attn:
            mask = None
            if attn_mask is not None:
                mask = attn_mask.to(torch.bool)[:, None, None, :]  # True = keep
            if rel_pos_bias is not None:
                bias = rel_pos_bias.expand(B, -1, -1, -1).to(q.dtype)  # (B, H, N, N) additive
                mask = bias if mask is None else bias.masked_fill(~mask, float("-inf"))
            x = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=self.attn_drop.p if self.training else 0.0)
        else:
            q = q * self.scale
            attn = q @ k.transpose(-2, -1)
            if rel_pos_bias is not None:
                attn = attn + rel_pos_bias.type_as(attn)
            if attn_mask is not None:
                attn_mask = attn_mask.to(torch.bool)
                attn = attn.masked_fill(~attn_mask[:, None, None, :], float("-inf"))
            attn = attn.softmax(dim=-1)
            attn = self.attn_drop(attn)
            x = attn @ v
        return self.proj(x.transpose(1, 2).reshape(B, N, C))
