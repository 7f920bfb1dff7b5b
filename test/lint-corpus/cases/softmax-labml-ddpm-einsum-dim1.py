# case: softmax-labml-ddpm-einsum-dim1
# modelled-on: labmlai/annotated_deep_learning_paper_implementations https://github.com/labmlai/annotated_deep_learning_paper_implementations/issues/146
# label: buggy
# pattern: einsum 'bihd,bjhd->bijh' puts the key axis at dim 2 and heads last, so neither -1 nor 1 is the key axis
# why: softmax over dim 1 normalises over the query positions i; each query's weights over keys j no longer sum to 1
import math
from typing import Optional

import torch
from torch import nn


class AttentionBlock(nn.Module):
    """Self-attention over the pixels of a feature map (DDPM U-Net)."""

    def __init__(self, n_channels: int, n_heads: int = 1, d_k: Optional[int] = None, n_groups: int = 32):
        super().__init__()
        if d_k is None:
            d_k = n_channels
        self.norm = nn.GroupNorm(n_groups, n_channels)
        self.projection = nn.Linear(n_channels, n_heads * d_k * 3)
        self.output = nn.Linear(n_heads * d_k, n_channels)
        self.scale = 1 / math.sqrt(d_k)
        self.n_heads = n_heads
        self.d_k = d_k

    def forward(self, x: torch.Tensor, t: Optional[torch.Tensor] = None) -> torch.Tensor:
        _ = t
        batch_size, n_channels, height, width = x.shape
        # (B, C, H, W) -> (B, H*W, C)
        x = x.view(batch_size, n_channels, -1).permute(0, 2, 1)
        # (B, seq, heads, 3 * d_k)
        qkv = self.projection(x).view(batch_size, -1, self.n_heads, 3 * self.d_k)
        q, k, v = torch.chunk(qkv, 3, dim=-1)  # each (B, seq, heads, d_k)
        # scores laid out (B, i, j, heads): i = query pixel, j = key pixel
        attn = torch.einsum("bihd,bjhd->bijh", q, k) * self.scale
        attn = attn.softmax(dim=1)  # expect: ATT001
        res = torch.einsum("bijh,bjhd->bihd", attn, v)  # (B, seq, heads, d_k)
        res = res.reshape(batch_size, -1, self.n_heads * self.d_k)
        res = self.output(res)
        res = res + x
        return res.permute(0, 2, 1).reshape(batch_size, n_channels, height, width)
