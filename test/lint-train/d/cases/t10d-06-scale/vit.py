# case: t10d-06-scale
# modelled-on: augustwester/tiny-vit https://github.com/augustwester/tiny-vit/commit/b16132de2427b1b98256272baa2a588698835d3e
# label: buggy
# class: real-bug
# pattern: a tiny ViT for CIFAR-10: the attention module in its own file stores self.scale = 1 / dim_head ** 0.5 in __init__, splits a fused qkv projection with einops into (b, h, t, d) heads, forms q @ k.permute(0, 1, 3, 2) and takes softmax(qkT / self.scale, dim=-1); the model builds 8 heads of width 64 per block
# why: buggy: self.scale is already the reciprocal 1 / sqrt(d) of the paper's factor, and the scores are divided by it, so they are multiplied by sqrt(64) = 8 instead of divided by 8 (a factor of 64 too large, which saturates the softmax); the paper the README cites scales by 1 / sqrt(d_h); no fix was found in the repository
# source: https://github.com/augustwester/tiny-vit https://github.com/augustwester/tiny-vit/commit/b16132de2427b1b98256272baa2a588698835d3e att.py
import torch
from einops import rearrange
from torch import nn

from att import Attention


class FeedForward(nn.Module):
    def __init__(self, dim, hidden, dropout=0.0):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden, dim), nn.Dropout(dropout))

    def forward(self, x):
        return self.net(x)


class TinyViT(nn.Module):
    def __init__(self, depth, num_patches, patch_size, patch_dim, embed_dim, mlp_dim, num_classes, dropout=0.0):
        super().__init__()
        self.patch_size = patch_size
        self.to_embed = nn.Linear(patch_dim, embed_dim)
        self.pos = nn.Parameter(torch.randn(1, num_patches + 1, embed_dim))
        self.cls = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.layers = nn.ModuleList(
            [
                nn.ModuleList([nn.LayerNorm(embed_dim), Attention(embed_dim, num_heads=8, dim_head=64, dropout=dropout), FeedForward(embed_dim, mlp_dim, dropout)])
                for _ in range(depth)
            ]
        )
        self.head = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, num_classes))

    def forward(self, x):
        b = x.shape[0]
        patches = rearrange(x, "b c (ph h) (pw w) -> b (h w) (ph pw c)", ph=self.patch_size, pw=self.patch_size)
        x = torch.cat((self.cls.repeat(b, 1, 1), self.to_embed(patches)), dim=1) + self.pos
        for norm, att, ff in self.layers:
            x = att(norm(x)) + x
            x = ff(x) + x
        return self.head(x[:, 0])
