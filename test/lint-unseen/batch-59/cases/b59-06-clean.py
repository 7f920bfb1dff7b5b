# case: b59-06-clean
# modelled-on: AlbertoParravicini/ddpm-from-scratch https://github.com/AlbertoParravicini/ddpm-from-scratch/commit/b84c6601564d68afdecd50ccf95b5a135b320151
# label: correct
# class: clean
# pattern: the self-attention block of a small time-conditioned diffusion U-Net: group norm and a 3x3 conv, the feature map flattened to tokens with `rearrange(x, "b c h w -> b (h w) c")`, `nn.MultiheadAttention(channels, num_heads=4, batch_first=True)` with the same tensor as query, key and value and `need_weights=False`, then the map restored and a second conv; blocks wrap each down/up residual block and the bottleneck, with skip connections concatenated on the channels
# why: correct: with `batch_first=True` the module expects (batch, tokens, embed) and gets (b, h*w, c); it projects, splits heads, scales by 1/sqrt(c / 4) and normalises over the h*w keys internally, so no explicit scale, softmax axis or mask is needed (every position of a map is real); the timestep argument is accepted for a uniform block interface and unused by the attention
# looks-like: ATT001, ATT003
# source: https://github.com/AlbertoParravicini/ddpm-from-scratch https://github.com/AlbertoParravicini/ddpm-from-scratch/commit/b84c6601564d68afdecd50ccf95b5a135b320151 ddpm_from_scratch/models/unet_big.py
from typing import Sequence

import torch
import torch.nn as nn
from einops import rearrange


class StepEmbedding(nn.Module):
    def __init__(self, channels: int, max_steps: int = 1000):
        super().__init__()
        self.table = nn.Embedding(max_steps, channels)

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        return self.table(t)[:, :, None, None]


class ConvResidual(nn.Module):
    def __init__(self, c_in: int, c_out: int, down: bool = False, up: bool = False):
        super().__init__()
        self.body = nn.Sequential(nn.GroupNorm(8, c_in), nn.SiLU(), nn.Conv2d(c_in, c_out, 3, padding=1))
        self.resize = nn.AvgPool2d(2) if down else nn.Upsample(scale_factor=2) if up else nn.Identity()
        self.skip = nn.Conv2d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, t: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return self.resize(self.body(x) + self.skip(x))


class SpatialSelfAttention(nn.Module):
    def __init__(self, channels: int, heads: int = 4):
        super().__init__()
        self.norm = nn.GroupNorm(num_groups=8, num_channels=channels)
        self.conv_in = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.mha = nn.MultiheadAttention(channels, num_heads=heads, batch_first=True)
        self.conv_out = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, t: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        height, width = x.shape[-2:]
        h = self.conv_in(self.norm(x))
        tokens = rearrange(h, "b c h w -> b (h w) c")
        tokens, _ = self.mha(tokens, tokens, tokens, need_weights=False)
        h = rearrange(tokens, "b (h w) c -> b c h w", h=height, w=width)
        return self.conv_out(h)


class ScaleBlock(nn.Module):
    def __init__(self, c_in: int, c_out: int, down: bool = False, up: bool = False):
        super().__init__()
        self.attn_in = SpatialSelfAttention(c_in)
        self.res = ConvResidual(c_in, c_out, down=down, up=up)
        self.attn_out = SpatialSelfAttention(c_out)
        self.step = StepEmbedding(c_out)

    def forward(self, t: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn_in(t, x)
        x = self.res(t, x)
        x = x + self.attn_out(t, x)
        return x + self.step(t)


class DenoisingUNet(nn.Module):
    def __init__(self, image_channels: int = 1, base: int = 16, mults: Sequence[int] = (1, 2, 3)):
        super().__init__()
        widths = [base * m for m in mults]
        self.stem = nn.Conv2d(image_channels, widths[0], 3, padding=1)
        self.down = nn.ModuleList(ScaleBlock(widths[i], widths[i + 1], down=True) for i in range(len(widths) - 1))
        self.middle = nn.ModuleList([ConvResidual(widths[-1], widths[-1]), SpatialSelfAttention(widths[-1]),
                                     ConvResidual(widths[-1], widths[-1])])
        self.up = nn.ModuleList(ScaleBlock(widths[i + 1] * 2, widths[i], up=True) for i in reversed(range(len(widths) - 1)))
        self.head = nn.Conv2d(widths[0], image_channels, 3, padding=1)

    def forward(self, t: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        skips = []
        for block in self.down:
            x = block(t, x)
            skips.append(x)
        for layer in self.middle:
            x = layer(t, x)
        for block in self.up:
            x = block(t, torch.cat([x, skips.pop()], dim=1))
        return self.head(x)
