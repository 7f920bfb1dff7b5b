from typing import Optional

import torch.nn as nn
from torch import Tensor


class MultiheadAttention(nn.Module):
    """Thin wrapper over torch's multi-head attention, batch-first in and out."""

    def __init__(self, d_model, num_heads, dropout=0.1, bias=True):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, bias=bias, batch_first=True)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Optional[Tensor] = None, attn_mask: Optional[Tensor] = None):
        out, _ = self.mha(query, key, value, key_padding_mask=key_padding_mask, attn_mask=attn_mask, need_weights=False)
        return out


class EncoderLayer(nn.Module):
    def __init__(self, d_model, d_ff, num_heads, dropout=0.1):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, num_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, src, src_mask=None, src_key_padding_mask=None):
        src = self.norm1(src + self.self_attn(src, src, src, key_padding_mask=src_key_padding_mask, attn_mask=src_mask))
        return self.norm2(src + self.ff(src))
