from __future__ import annotations

import torch
import torch.nn as nn

from single_head_attention import SingleHeadAttention


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, model_dim: int, num_heads: int):
        super().__init__()
        if model_dim % num_heads != 0:
            raise ValueError(f"model_dim ({model_dim}) must be divisible by num_heads ({num_heads}).")
        head_size = model_dim // num_heads
        self.attention_heads = nn.ModuleList(SingleHeadAttention(model_dim, head_size) for _ in range(num_heads))
        self.compute = nn.Linear(model_dim, model_dim)
        self.dropout = nn.Dropout(0.2)

    def forward(self, embedded: torch.Tensor) -> torch.Tensor:
        outputs = [head(embedded) for head in self.attention_heads]  # each [batch, context, head_size]
        return self.dropout(self.compute(torch.cat(outputs, dim=-1)))
