from dataclasses import dataclass, replace

import torch
import torch.nn as nn

from models.attention import MultiHeadAttention


@dataclass
class ViTConfig:
    embed_dim: int = 192
    num_heads: int = 3
    depth: int = 6
    dropout: float = 0.1


class Encoder(nn.Module):
    def __init__(self, config: ViTConfig, use_scaling: bool = True):
        super().__init__()
        self.blocks = nn.ModuleList(
            [MultiHeadAttention(config.embed_dim, config.num_heads, config.dropout, use_scaling=use_scaling) for _ in range(config.depth)]
        )

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            out, _ = block(tokens)
            tokens = tokens + out
        return tokens


ABLATIONS = {
    "baseline": dict(use_scaling=True, description="ViT as in the paper"),
    "no_scaling": dict(use_scaling=False, description="Remove sqrt(d_k) scaling from attention scores"),
}


def build_variants(config: ViTConfig):
    return {name: Encoder(replace(config), use_scaling=spec["use_scaling"]) for name, spec in ABLATIONS.items()}
