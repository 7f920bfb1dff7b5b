from dataclasses import dataclass


@dataclass
class ModelConfig:
    """Settings of a model; mask_eps is the value masked attention scores are filled with."""

    d_model: int = 512
    d_ff: int = 2048
    n_heads: int = 8
    dropout: float = 0.1
    pe_type: str = "absolute"
    mask_eps: float = float("-inf")


def attention_for(config: ModelConfig):
    from layers import ALiBiAttention, DotProductAttention

    if config.pe_type == "alibi":
        return ALiBiAttention(config.n_heads, config.d_model, dropout=config.dropout)
    return DotProductAttention(config.n_heads, config.d_model, dropout=config.dropout)
