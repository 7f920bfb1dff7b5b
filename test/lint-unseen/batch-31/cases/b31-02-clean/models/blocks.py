"""
Core building blocks for the causal EEG conformer.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvFrontEnd(nn.Module):
    """Spatial-temporal convolutional front-end: (B, C, T) raw EEG -> (B, num_patches, embed_dim)."""

    def __init__(self, n_channels: int, embed_dim: int = 128, temp_kernel: int = 25, temp_filters: int = 32,
                 stride: int = 10, dropout: float = 0.1):
        super().__init__()
        self.temp_conv = nn.Conv2d(1, temp_filters, kernel_size=(1, temp_kernel),
                                   padding=(0, temp_kernel // 2), bias=False)
        self.bn_temp = nn.BatchNorm2d(temp_filters)
        self.spatial_conv = nn.Conv2d(temp_filters, embed_dim, kernel_size=(n_channels, 1), bias=False)
        self.bn_spatial = nn.BatchNorm2d(embed_dim)
        self.pool = nn.AvgPool2d(kernel_size=(1, stride), stride=(1, stride))
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.ndim == 3:
            x = x.unsqueeze(1)
        h = F.elu(self.bn_temp(self.temp_conv(x)))
        h = F.elu(self.bn_spatial(self.spatial_conv(h)))  # (B, embed_dim, 1, T)
        h = self.drop(self.pool(h))
        return h.squeeze(2).permute(0, 2, 1).contiguous()  # (B, num_patches, embed_dim)


class PositionalEncoding(nn.Module):
    """Learnable positional encoding for the patch tokens."""

    def __init__(self, embed_dim: int, max_len: int = 2000):
        super().__init__()
        self.pos_embed = nn.Parameter(torch.zeros(1, max_len, embed_dim))
        nn.init.trunc_normal_(self.pos_embed, std=0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.pos_embed[:, : x.shape[1], :]


class CausalTransformerEncoderBlock(nn.Module):
    """Pre-norm causal encoder block: multi-head self-attention, then a feed-forward layer."""

    def __init__(self, embed_dim: int = 128, num_heads: int = 4, ffn_dim: int = 512, dropout: float = 0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(
            embed_dim=embed_dim,
            num_heads=num_heads,
            dropout=dropout,
            batch_first=True,
        )
        self.ln2 = nn.LayerNorm(embed_dim)
        self.ffn = nn.Sequential(
            nn.Linear(embed_dim, ffn_dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(ffn_dim, embed_dim),
            nn.Dropout(dropout),
        )

    def forward(self, x: torch.Tensor, causal_mask: torch.Tensor) -> torch.Tensor:
        norm_x = self.ln1(x)
        attn_out, _ = self.attn(
            query=norm_x,
            key=norm_x,
            value=norm_x,
            attn_mask=causal_mask,
            need_weights=False,
        )
        x = x + attn_out
        x = x + self.ffn(self.ln2(x))
        return x
