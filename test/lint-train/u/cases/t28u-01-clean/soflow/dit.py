import math

import torch
import torch.nn as nn
from einops import rearrange

from .layers import DiTBlock, FinalLayer


def timestep_embedding(t, dim, max_period=10000):
    # t: (B,) fractional times in [0, 1] -> (B, dim)
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TimeEmbed(nn.Module):
    def __init__(self, hidden_size, freq_size=256):
        super().__init__()
        self.freq_size = freq_size
        self.mlp = nn.Sequential(nn.Linear(freq_size, hidden_size), nn.SiLU(), nn.Linear(hidden_size, hidden_size))

    def forward(self, t):
        return self.mlp(timestep_embedding(t, self.freq_size))


class DiT(nn.Module):
    """Solution-function backbone f(x_t, t, s): two time embeddings and a class embedding condition every block."""

    def __init__(self, input_size=32, patch_size=2, in_channels=4, hidden_size=1152, depth=28, num_heads=16,
                 mlp_ratio=4.0, num_classes=1000):
        super().__init__()
        self.patch_size = patch_size
        self.out_channels = in_channels
        self.x_embedder = nn.Conv2d(in_channels, hidden_size, kernel_size=patch_size, stride=patch_size)
        num_patches = (input_size // patch_size) ** 2
        self.register_buffer("pos_embed", torch.zeros(1, num_patches, hidden_size))
        self.t_embedder = TimeEmbed(hidden_size)
        self.s_embedder = TimeEmbed(hidden_size)
        self.y_embedder = nn.Embedding(num_classes + 1, hidden_size)
        self.blocks = nn.ModuleList([DiTBlock(hidden_size, num_heads, mlp_ratio=mlp_ratio) for _ in range(depth)])
        self.final_layer = FinalLayer(hidden_size, patch_size, self.out_channels)

    def unpatchify(self, x):
        # (B, N, p * p * C) -> (B, C, H, W)
        p, c = self.patch_size, self.out_channels
        h = w = int(x.shape[1] ** 0.5)
        x = x.reshape(x.shape[0], h, w, p, p, c)
        return rearrange(x, "b h w p1 p2 c -> b c (h p1) (w p2)")

    def forward(self, x, t, s, y):
        x = rearrange(self.x_embedder(x), "b c h w -> b (h w) c") + self.pos_embed  # (B, N, D)
        c = self.t_embedder(t) + self.s_embedder(s) + self.y_embedder(y)  # (B, D)
        for block in self.blocks:
            x = block(x, c)
        return self.unpatchify(self.final_layer(x, c))


def DiT_XL_2(**kw):
    return DiT(depth=28, hidden_size=1152, patch_size=2, num_heads=16, **kw)


def DiT_L_2(**kw):
    return DiT(depth=24, hidden_size=1024, patch_size=2, num_heads=16, **kw)


def DiT_B_2(**kw):
    return DiT(depth=12, hidden_size=768, patch_size=2, num_heads=12, **kw)


def DiT_S_2(**kw):
    return DiT(depth=12, hidden_size=384, patch_size=2, num_heads=6, **kw)


DIT_MODELS = {"DiT-XL/2": DiT_XL_2, "DiT-L/2": DiT_L_2, "DiT-B/2": DiT_B_2, "DiT-S/2": DiT_S_2}
