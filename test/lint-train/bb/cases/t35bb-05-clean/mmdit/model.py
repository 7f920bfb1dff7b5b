import math
from typing import Optional

import torch
import torch.nn as nn

from .blocks import AdaptiveLayerNorm, MMDiTBlock


class DiffusionTransformer(nn.Module):
    """Joint transformer over image-latent patches (B, T1, C1) and text embeddings (B, T2, C2)."""

    def __init__(self, num_features: int, num_heads: int, num_layers: int, input_features: int = 192,
                 input_max_sequence_length: int = 1024, conditioning_features: int = 1024,
                 conditioning_max_sequence_length: int = 77, expansion_factor: int = 4):
        super().__init__()
        self.timestep_mlp = nn.Sequential(nn.Linear(1, num_features), nn.SiLU(), nn.Linear(num_features, num_features))
        self.input_embedding = nn.Linear(input_features, num_features)
        self.input_position_embedding = nn.Parameter(
            torch.randn(input_max_sequence_length, num_features) / math.sqrt(num_features))
        self.conditioning_embedding = nn.Linear(conditioning_features, num_features)
        self.conditioning_position_embedding = nn.Parameter(
            torch.randn(conditioning_max_sequence_length, num_features) / math.sqrt(num_features))
        self.transformer_blocks = nn.ModuleList(
            [MMDiTBlock(num_features, num_heads, expansion_factor) for _ in range(num_layers - 1)])
        self.transformer_blocks.append(MMDiTBlock(num_features, num_heads, expansion_factor, is_last=True))
        self.final_norm = AdaptiveLayerNorm(num_features)
        self.final_linear = nn.Linear(num_features, input_features)
        nn.init.zeros_(self.final_linear.weight)
        nn.init.zeros_(self.final_linear.bias)

    def forward(self, x: torch.Tensor, t: torch.Tensor, conditioning: torch.Tensor,
                input_mask: Optional[torch.Tensor] = None,
                conditioning_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        t = self.timestep_mlp(t)
        y = self.input_embedding(x) + self.input_position_embedding[: x.shape[1]]
        if input_mask is None:
            mask = torch.ones(x.shape[0], x.shape[1], device=x.device)
        else:
            mask = input_mask

        c = self.conditioning_embedding(conditioning) + self.conditioning_position_embedding[: conditioning.shape[1]]
        if conditioning_mask is None:
            # the tokenizer's attention_mask: 1 on real tokens, 0 on padding
            conditioning_mask = torch.ones(conditioning.shape[0], conditioning.shape[1], device=conditioning.device)
        mask = torch.cat([mask, conditioning_mask], dim=1)  # (B, T1 + T2)

        mask = mask.bool()
        mask = mask.unsqueeze(-1) & mask.unsqueeze(1)  # (B, T1 + T2, T1 + T2)
        identity = torch.eye(mask.shape[1], device=mask.device, dtype=mask.dtype).unsqueeze(0)
        mask = mask | identity
        mask = mask.unsqueeze(1)  # (B, 1, T1 + T2, T1 + T2)

        for block in self.transformer_blocks:
            y, c = block(y, c, t, mask=mask)
        return self.final_linear(self.final_norm(y, t))
