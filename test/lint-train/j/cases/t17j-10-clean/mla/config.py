from dataclasses import dataclass


@dataclass
class MLAConfig:
    hidden_size: int = 512
    num_heads: int = 8
    head_dim: int = 64
    rope_head_dim: int = 32
    compressed_dim_kv: int = 128
    compressed_dim_q: int = 192
