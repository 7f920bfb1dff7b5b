import torch
from torch import nn

from .modules import Attention
from .utils import lens_to_mask


class DiTBlock(nn.Module):
    def __init__(self, dim, heads, dim_head):
        super().__init__()
        self.norm = nn.LayerNorm(dim, elementwise_affine=False)
        self.attn = Attention(dim, heads, dim_head)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(approximate="tanh"), nn.Linear(2 * dim, dim))

    def forward(self, x, mask, rope):
        x = x + self.attn(self.norm(x), mask=mask, rope=rope)
        return x + self.ff(x)


class VelocityField(nn.Module):
    def __init__(self, dim=512, depth=8, heads=8, dim_head=64):
        super().__init__()
        self.blocks = nn.ModuleList([DiTBlock(dim, heads, dim_head) for _ in range(depth)])

    def forward(self, x, durations, rope):
        # x: (b, n, dim) noised mel frames padded to the longest duration in the batch
        mask = lens_to_mask(durations, length=x.shape[1])
        for block in self.blocks:
            x = block(x, mask, rope)
        return x
