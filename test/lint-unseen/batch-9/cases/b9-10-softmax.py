# case: b9-10-softmax
# modelled-on: samsja/pytorch-vision-transformers https://github.com/samsja/pytorch-vision-transformers/commit/307dc1bc9ae0b3e2a226918234b07f0018bccea5
# label: buggy
# class: real-bug
# pattern: a small library of vision transformers: multi-head self-attention chunks a fused qkv Linear into three and rearranges each with einops "b p (heads d) -> b heads p d", scores the patches with q @ k.transpose(-1, -2) / sqrt(dim_heads), softmaxes with dim=2 and multiplies with v; an encoder block wraps it with layer norm, residuals and an MLP
# why: buggy: after the rearrange the scores are (batch, heads, patches_q, patches_k), so dim=2 is the query axis: each key's column is normalised over the queries and the rows that weight v do not sum to 1; ViT's multi-head self-attention (which the module implements) normalises every query's row over the keys, dim=-1; the dim=2 was written with the 4-D rearrange in the first commit of the layer and never changed; no fix was found
# source: https://github.com/samsja/pytorch-vision-transformers https://github.com/samsja/pytorch-vision-transformers/commit/307dc1bc9ae0b3e2a226918234b07f0018bccea5 vision_transformers/transformers/vit/vit.py
import math

import torch
import torch.nn as nn
from einops import rearrange


class MHSAttention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        if dim % heads != 0:
            raise ValueError(f"input dim {dim} is not compatible with {heads} attention heads")
        self.heads = heads
        self.dim_heads = dim // heads
        self.qkv = nn.Linear(dim, 3 * self.dim_heads * self.heads)
        self.linear_out = nn.Linear(self.dim_heads * self.heads, dim) if self.heads > 1 else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (batch, patches, dim)
        q, k, v = [rearrange(t, "b p (heads d) -> b heads p d", heads=self.heads) for t in self.qkv(x).chunk(3, dim=-1)]

        A = q @ k.transpose(-1, -2) / math.sqrt(self.dim_heads)
        MSA = A.softmax(dim=2) @ v  # expect: ATT001
        MSA = rearrange(MSA, "b heads p d -> b p (heads d)")
        return self.linear_out(MSA)


class EncoderBlock(nn.Module):
    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.layernorm = nn.LayerNorm(dim)
        self.attention = MHSAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim), nn.ReLU())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.layernorm(x))
        return x + self.mlp(self.layernorm(x))


if __name__ == "__main__":
    block = EncoderBlock(dim=64, heads=8)
    print(block(torch.randn(2, 17, 64)).shape)
