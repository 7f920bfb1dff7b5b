from dataclasses import dataclass

import torch.nn as nn

from attention import AbsoluteAttention, RotaryAttention


@dataclass
class ModelSettings:
    d_model: int = 512
    n_heads: int = 8
    dropout: float = 0.1
    pe_type: str = "absolute"


def build_attention(settings: ModelSettings) -> nn.Module:
    """Chooses the attention layer for the positional scheme; the mask value is left to its default."""
    choices = {
        "absolute": lambda s: AbsoluteAttention(s.n_heads, s.d_model, dropout=s.dropout),
        "rotary": lambda s: RotaryAttention(s.n_heads, s.d_model, dropout=s.dropout),
    }
    if settings.pe_type not in choices:
        raise ValueError(f"unknown positional scheme: {settings.pe_type}")
    return choices[settings.pe_type](settings)
