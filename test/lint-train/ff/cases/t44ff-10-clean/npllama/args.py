from dataclasses import dataclass
from typing import Optional


@dataclass
class LlamaArgs:
    dim: int = 4096
    n_layers: int = 32
    n_heads: int = 32
    n_kv_heads: Optional[int] = 8
    vocab_size: int = 128256
    norm_eps: float = 1e-6
    rope_theta: float = 500000.0
    max_batch_size: int = 1
    max_seq_len: int = 128
    max_new_tokens: int = 50
