from typing import Optional

import torch
import torch.nn as nn

from rlnet.entity_attention import EntityAttention


class EntityLayer(nn.Module):
    def __init__(self, input_dim, head_dim, hidden_dim, head_num, dropout):
        super().__init__()
        self.attention = EntityAttention(input_dim, head_dim, input_dim, head_num, dropout)
        self.norm1 = nn.LayerNorm(input_dim)
        self.mlp = nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, input_dim))
        self.norm2 = nn.LayerNorm(input_dim)
        self.dropout = dropout

    def forward(self, inputs):
        x, mask = inputs
        x = self.norm1(x + self.dropout(self.attention(x, mask)))
        x = self.norm2(x + self.dropout(self.mlp(x)))
        return x, mask


class EntityEncoder(nn.Module):
    """Encodes a variable number of game entities; `mask` (B, N) is True for the valid entities."""

    def __init__(self, input_dim=128, head_dim=32, hidden_dim=256, head_num=4, layer_num=3, dropout_p=0.0):
        super().__init__()
        dropout = nn.Dropout(dropout_p)
        self.layers = nn.Sequential(*[EntityLayer(input_dim, head_dim, hidden_dim, head_num, dropout) for _ in range(layer_num)])

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        if mask is not None:
            # (B, N) -> (B, 1, N, N): every entity may look at every valid entity
            mask = mask.unsqueeze(dim=1).repeat(1, mask.shape[1], 1).unsqueeze(dim=1)
        x, _ = self.layers((x, mask))
        return x
