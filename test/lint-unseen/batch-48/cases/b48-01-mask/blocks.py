from typing import Optional

import torch
import torch.nn as nn


class SelfAttentionModule(nn.Module):
    """Pre-norm self-attention of a conformer block."""

    def __init__(self, width: int, heads: int = 8, p: float = 0.1):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.mha = nn.MultiheadAttention(width, heads, dropout=p, batch_first=True)
        self.drop = nn.Dropout(p)

    def forward(self, x: torch.Tensor, pad: Optional[torch.Tensor] = None) -> torch.Tensor:
        # pad: (B, T), True on the positions to ignore
        h = self.norm(x)
        h, _ = self.mha(
            h, h, h,
            key_padding_mask=pad,  # expect: ATT002
            need_weights=False,
        )
        return self.drop(h)


class CrossDecoderLayer(nn.Module):
    def __init__(self, width: int, heads: int = 8, ff: int = 2048, p: float = 0.1):
        super().__init__()
        self.self_norm = nn.LayerNorm(width)
        self.self_mha = nn.MultiheadAttention(width, heads, dropout=p, batch_first=True)
        self.cross_norm = nn.LayerNorm(width)
        self.cross_mha = nn.MultiheadAttention(width, heads, dropout=p, batch_first=True)
        self.ff_norm = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff), nn.GELU(), nn.Dropout(p), nn.Linear(ff, width))

    def forward(self, y, memory, future: torch.Tensor, memory_pad: Optional[torch.Tensor] = None):
        h = self.self_norm(y)
        y = y + self.self_mha(h, h, h, attn_mask=future, need_weights=False)[0]
        h = self.cross_norm(y)
        y = y + self.cross_mha(
            h, memory, memory,
            key_padding_mask=memory_pad,  # expect: ATT002
            need_weights=False,
        )[0]
        return y + self.ff(self.ff_norm(y))
