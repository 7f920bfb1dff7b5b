from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 768
    n_heads: int = 12
    d_head: int = 64
    dropout: float = 0.1
