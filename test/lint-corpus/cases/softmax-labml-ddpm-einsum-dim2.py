# case: softmax-labml-ddpm-einsum-dim2
# modelled-on: labmlai/annotated_deep_learning_paper_implementations https://github.com/labmlai/annotated_deep_learning_paper_implementations/blob/master/labml_nn/diffusion/ddpm/unet.py
# label: correct
# pattern: the fixed DDPM block: einsum layout (B, i, j, heads) with softmax over dim=2, which is the key axis although it is not -1 (a later issue, #282, wrongly argued for dim=1)
# why: dim 2 is j, the key index of 'bihd,bjhd->bijh', so every query's weights over keys sum to 1
# looks-like: ATT001
import math
from typing import Optional

import torch
from torch import nn


class AttentionBlock(nn.Module):
    def __init__(self, n_channels: int, n_heads: int = 1, d_k: Optional[int] = None, n_groups: int = 32):
        super().__init__()
        if d_k is None:
            d_k = n_channels
        self.norm = nn.GroupNorm(n_groups, n_channels)
        self.projection = nn.Linear(n_channels, n_heads * d_k * 3)
        self.output = nn.Linear(n_heads * d_k, n_channels)
        self.scale = d_k ** -0.5
        self.n_heads = n_heads
        self.d_k = d_k

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch_size, n_channels, height, width = x.shape
        x = x.view(batch_size, n_channels, -1).permute(0, 2, 1)  # (B, seq, C)
        qkv = self.projection(x).view(batch_size, -1, self.n_heads, 3 * self.d_k)
        q, k, v = torch.chunk(qkv, 3, dim=-1)  # (B, seq, heads, d_k)
        attn = torch.einsum("bihd,bjhd->bijh", q, k) * self.scale  # (B, i, j, heads)
        attn = attn.softmax(dim=2)  # normalise over j, the keys
        res = torch.einsum("bijh,bjhd->bihd", attn, v)
        res = res.reshape(batch_size, -1, self.n_heads * self.d_k)
        res = self.output(res) + x
        return res.permute(0, 2, 1).reshape(batch_size, n_channels, height, width)
