from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 512
    n_heads: int = 8
    mask_value: float = -65000.0  # finite in float16 (max 65504)
    half: bool = True
