from dataclasses import dataclass


@dataclass
class ModelConfig:
    dim: int = 256
    n_heads: int = 8
    causal: bool = True
