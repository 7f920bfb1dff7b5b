"""Sizes of the frame encoder: the vision backbone's patch grid and the latents that compress it."""

from dataclasses import dataclass

import torch


@dataclass
class FrameEncoderConfig:
    vision_width: int = 384  # token width of the ViT backbone (a CLS token and 4 registers precede the patches)
    patch_rows: int = 30
    patch_cols: int = 40

    latent_count: int = 58  # 6 x 8 local latents + 10 global ones
    latent_rows: int = 6
    latent_cols: int = 8
    global_latents: int = 10
    latent_width: int = 512
    latent_heads: int = 8

    blocks: int = 4
    self_layers_per_block: int = 2
    mlp_ratio: float = 4.0
    dropout: float = 0.0
    dtype: torch.dtype = torch.float32

    def __post_init__(self):
        if self.latent_rows * self.latent_cols + self.global_latents != self.latent_count:
            raise ValueError("local grid plus global latents must equal latent_count")
        if self.patch_rows % self.latent_rows or self.patch_cols % self.latent_cols:
            raise ValueError("the patch grid must split evenly into latent cells")
