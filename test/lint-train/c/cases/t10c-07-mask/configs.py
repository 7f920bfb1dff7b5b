from dataclasses import dataclass


@dataclass
class MSAConfig:
    embed_dim: int = 256
    attention_heads: int = 8
    attention_dropout: float = 0.1
    padding_idx: int = 1


def padding_mask(tokens, padding_idx):
    """(B, R, C) tokens -> (B, R, C) mask, True on padding positions (the ESM convention)."""
    return tokens == padding_idx
