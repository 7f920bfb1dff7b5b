# case: b59-03-clean
# modelled-on: antonalth/cs2-transformer-agent https://github.com/antonalth/cs2-transformer-agent/commit/19d2e6597c90ee8101d949c9b132bd08c0eb1c33
# label: correct
# class: clean
# pattern: a Perceiver-style compressor of a ViT's patch tokens into a few latents (a folder: the grid sizes come from `vision_config.py`); learned latent queries cross-attend to the patches through `nn.MultiheadAttention` with a float `attn_mask` of shape (latents, tokens) built once: 0.0 where a local latent may look (the patches of its own cell of the grid) and -inf elsewhere, all zeros for the global latents and for the backbone's prefix tokens; self-attention among the latents follows, unmasked
# why: correct: a float `attn_mask` is added to the scores by `nn.MultiheadAttention`, so 0.0 keeps and -inf removes a pair; every latent row keeps at least its cell's patches (the config checks that the grid divides evenly) or everything (global latents), so no row is all -inf; the prefix columns are zeros, i.e. visible to every latent; the scale is the module's own
# looks-like: ATT002, ATT007
# source: https://github.com/antonalth/cs2-transformer-agent https://github.com/antonalth/cs2-transformer-agent/commit/19d2e6597c90ee8101d949c9b132bd08c0eb1c33 transformers/model4/model.py
from typing import Optional

import torch
import torch.nn as nn

from vision_config import FrameEncoderConfig


class LatentCrossBlock(nn.Module):
    def __init__(self, latent_width: int, token_width: int, heads: int, dtype: torch.dtype):
        super().__init__()
        self.norm_latents = nn.LayerNorm(latent_width, dtype=dtype)
        self.norm_tokens = nn.LayerNorm(token_width, dtype=dtype)
        self.cross = nn.MultiheadAttention(
            latent_width, heads, batch_first=True, kdim=token_width, vdim=token_width, dtype=dtype
        )
        self.norm_out = nn.LayerNorm(latent_width, dtype=dtype)

    def forward(self, latents: torch.Tensor, tokens: torch.Tensor, attn_mask: Optional[torch.Tensor] = None):
        kv = self.norm_tokens(tokens)
        attended, _ = self.cross(self.norm_latents(latents), kv, kv, attn_mask=attn_mask, need_weights=False)
        return self.norm_out(latents + attended)


class LatentSelfBlock(nn.Module):
    def __init__(self, width: int, heads: int, mlp_ratio: float, dropout: float, dtype: torch.dtype):
        super().__init__()
        self.norm1 = nn.LayerNorm(width, dtype=dtype)
        self.attn = nn.MultiheadAttention(width, heads, dropout=dropout, batch_first=True, dtype=dtype)
        self.norm2 = nn.LayerNorm(width, dtype=dtype)
        hidden = int(width * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(width, hidden, dtype=dtype), nn.GELU(), nn.Linear(hidden, width, dtype=dtype))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class PatchCompressor(nn.Module):
    def __init__(self, cfg: FrameEncoderConfig):
        super().__init__()
        self.cfg = cfg
        self.n_patches = cfg.patch_rows * cfg.patch_cols
        self.latents = nn.Parameter(torch.randn(1, cfg.latent_count, cfg.latent_width, dtype=cfg.dtype) * 0.02)
        self.register_buffer("cell_bias", self._cell_bias(), persistent=False)
        self.cross_blocks = nn.ModuleList(
            LatentCrossBlock(cfg.latent_width, cfg.vision_width, cfg.latent_heads, cfg.dtype) for _ in range(cfg.blocks)
        )
        self.self_blocks = nn.ModuleList(
            nn.ModuleList(
                LatentSelfBlock(cfg.latent_width, cfg.latent_heads, cfg.mlp_ratio, cfg.dropout, cfg.dtype)
                for _ in range(cfg.self_layers_per_block)
            )
            for _ in range(cfg.blocks)
        )

    def _cell_bias(self) -> torch.Tensor:
        """(latents, patches) additive bias: a local latent sees only the patches of its cell."""
        cfg = self.cfg
        n_local = cfg.latent_rows * cfg.latent_cols
        bias = torch.full((cfg.latent_count, self.n_patches), float("-inf"))
        cell_h = cfg.patch_rows // cfg.latent_rows
        cell_w = cfg.patch_cols // cfg.latent_cols
        for r in range(cfg.latent_rows):
            for c in range(cfg.latent_cols):
                rows = torch.arange(r * cell_h, (r + 1) * cell_h)
                cols = torch.arange(c * cell_w, (c + 1) * cell_w)
                patch_ids = (rows[:, None] * cfg.patch_cols + cols[None, :]).flatten()
                bias[r * cfg.latent_cols + c, patch_ids] = 0.0
        bias[n_local:, :] = 0.0  # the global latents see the whole frame
        return bias

    def _bias_for(self, n_tokens: int, dtype: torch.dtype) -> torch.Tensor:
        bias = self.cell_bias
        n_prefix = n_tokens - self.n_patches
        if n_prefix > 0:  # CLS and register tokens of the backbone: visible to every latent
            bias = torch.cat([bias.new_zeros(bias.shape[0], n_prefix), bias], dim=1)
        return bias.to(dtype)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        latents = self.latents.expand(tokens.shape[0], -1, -1)
        bias = self._bias_for(tokens.shape[1], latents.dtype)
        for cross, tower in zip(self.cross_blocks, self.self_blocks):
            latents = cross(latents, tokens, attn_mask=bias)
            for layer in tower:
                latents = layer(latents)
        return latents
