from dataclasses import dataclass, field
from typing import Optional


@dataclass
class FeatureInteractionConfig:
    """Settings of the automatic feature-interaction (AutoInt) backbone."""

    embedding_dim: int = field(default=16, metadata={"help": "Width of each column's embedding."})
    deep_layers: bool = field(default=False, metadata={"help": "Run an MLP on the embeddings first."})
    layers: str = field(default="128-64-32", metadata={"help": "Hidden sizes of that MLP."})
    attn_embed_dim: int = field(
        default=32,
        metadata={"help": "Width of the interaction space; split evenly across the heads."},
    )
    num_heads: int = field(default=2, metadata={"help": "Heads of each interaction layer."})
    num_attn_blocks: int = field(default=3, metadata={"help": "Stacked interaction layers."})
    attn_dropouts: float = field(default=0.0, metadata={"help": "Dropout on the attention weights."})
    has_residuals: bool = field(default=True, metadata={"help": "Add a projected skip path."})
    attention_pooling: bool = field(default=False, metadata={"help": "Concatenate every block's output."})
    continuous_dim: int = 0
    categorical_dim: int = 0
    head: Optional[str] = "LinearHead"
