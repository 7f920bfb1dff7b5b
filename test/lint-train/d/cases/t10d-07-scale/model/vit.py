# case: t10d-07-scale
# modelled-on: thubZ09/paper-implementations https://github.com/thubZ09/paper-implementations/commit/7526755fd773aea15ea92e07e98a3573485abc9c
# label: buggy
# class: real-bug
# pattern: a ViT paper implementation split into a package: configs (a small model of width 384 with 6 heads), an attention module that stores self.scale = dim ** -0.5 from the model width, chunks a fused qkv projection and reshapes each part to (b, h, n, dim // h), multiplies q @ k.transpose(-1, -2) by self.scale and softmaxes over the last axis; the transformer block builds it with the config's width and head count
# why: buggy: the keys of each head are dim // heads = 64 wide, and the paper scales by 1 / sqrt of that width; dim ** -0.5 uses the whole model width (384 ** -0.5 instead of 64 ** -0.5), shrinking the scores by another sqrt(6); the same mistake in the well-known ViT reference implementation was confirmed and fixed by its author (scale by dim_head ** -0.5); no fix in this repository
# source: https://github.com/thubZ09/paper-implementations https://github.com/thubZ09/paper-implementations/commit/7526755fd773aea15ea92e07e98a3573485abc9c ViT/model/attention.py
import torch
import torch.nn as nn

from configs.small import SmallConfig
from model.attention import Attention


class Block(nn.Module):
    def __init__(self, dim, heads, mlp_dim, dropout=0.0):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads=heads, dropout=dropout)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(mlp_dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class VisionTransformer(nn.Module):
    def __init__(self, config=SmallConfig):
        super().__init__()
        n = (config.image_size // config.patch_size) ** 2
        self.patch = nn.Conv2d(config.channels, config.dim, config.patch_size, stride=config.patch_size)
        self.cls = nn.Parameter(torch.randn(1, 1, config.dim))
        self.pos = nn.Parameter(torch.randn(1, n + 1, config.dim))
        self.blocks = nn.ModuleList([Block(config.dim, config.heads, config.mlp_dim, config.dropout) for _ in range(config.depth)])
        self.head = nn.Sequential(nn.LayerNorm(config.dim), nn.Linear(config.dim, config.num_classes))

    def forward(self, img):
        x = self.patch(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(x[:, 0])
