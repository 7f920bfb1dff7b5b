from dataclasses import dataclass


@dataclass
class TinyGPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = False
    # exported encoder (masked next-token prediction): same weights, no triangular mask
    bidirectional: bool = False
    use_attn_res: bool = True
