from dataclasses import dataclass


@dataclass(frozen=True)
class LabConfig:
    context_length: int = 128
    embedding_dim: int = 192
    num_layers: int = 4
    num_heads: int = 6
    mlp_dim: int = 768
    dropout: float = 0.1

    def __post_init__(self):
        if self.embedding_dim % self.num_heads:
            raise ValueError("embedding_dim must be a multiple of num_heads")

    @property
    def head_dim(self) -> int:
        return self.embedding_dim // self.num_heads
