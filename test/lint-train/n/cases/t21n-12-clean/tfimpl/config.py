from dataclasses import dataclass


@dataclass
class AttentionConfig:
    type: str = "dilated"
    num_heads: int = 8
    window_size: int = 64
    dilation: int = 4
    dropout: float = 0.1
    # documented option: scale scores by 1/sqrt(d_k) before the softmax
    scale_attention: bool = True
