from dataclasses import dataclass


@dataclass
class TransformerConfig:
    d_model: int = 768
    d_vocab: int = 1974
    d_head: int = 64
    n_layers: int = 4
    n_heads: int = 4
    ctx_len: int = 256
    init_std: float = 0.02
    ln_eps: float = 1e-5
    d_mlp: int = 768 * 4
