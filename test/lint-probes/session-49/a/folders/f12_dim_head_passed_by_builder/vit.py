import torch.nn as nn

from attention import Attention


class Transformer(nn.Module):
    def __init__(self, dim, depth, heads, mlp_dim):
        super().__init__()
        self.layers = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(dim), Attention(dim, heads=heads, dim_head=dim // heads), nn.LayerNorm(dim), nn.Linear(dim, mlp_dim)]) for _ in range(depth)]
        )

    def forward(self, x):
        for norm1, attn, norm2, ff in self.layers:
            x = attn(norm1(x)) + x
            x = ff(norm2(x)) + x
        return x
