from dataclasses import dataclass, fields


@dataclass
class SmallLlamaConfig:
    """Sizes of a small Llama-style decoder; head_dim and n_kv_head are derived when left out."""

    vocab: int = 32000
    context: int = 512
    layers: int = 8
    n_embd: int = 512
    n_head: int = 8
    head_dim: int | None = None
    n_kv_head: int | None = None
    dropout: float = 0.1
    bias: bool = False

    def __post_init__(self):
        self.head_dim = self.head_dim or self.n_embd // self.n_head
        self.n_kv_head = self.n_kv_head or self.n_head
        assert self.head_dim * self.n_head == self.n_embd, "heads must tile the model width"
        assert self.n_head % self.n_kv_head == 0, "query heads must be a multiple of key/value heads"


def load_config(raw: dict) -> SmallLlamaConfig:
    names = {f.name for f in fields(SmallLlamaConfig)}
    return SmallLlamaConfig(**{key: value for key, value in raw.items() if key in names})
