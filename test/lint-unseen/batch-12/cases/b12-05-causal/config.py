from dataclasses import dataclass

import yaml


@dataclass
class ModelConfig:
    block_size: int
    vocab_size: int
    n_layer: int
    n_head: int
    n_kv_head: int
    n_embd: int
    dropout: float
    bias: bool
    use_kvcache: bool
    use_gqa: bool

    @classmethod
    def load(cls, path):
        with open(path) as f:
            return cls(**yaml.safe_load(f))
