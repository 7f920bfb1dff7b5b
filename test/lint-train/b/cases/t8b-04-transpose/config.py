from dataclasses import dataclass


@dataclass
class ViTConfig:
    image_size: int = 32
    patch_size: int = 4
    embedding_dimension: int = 192
    num_heads: int = 6
    mlp_hidden_dimension: int = 384
    num_layers: int = 6
    drop_rate: float = 0.1
