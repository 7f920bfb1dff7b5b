from dataclasses import dataclass, field


@dataclass
class AttnSettings:
    kind: str = "SpectralHead"   # or "DenseHead"
    n_heads: int = 8
    head_dim: int = 64
    emb_dim: int = 512
    dropout: float = 0.1
    dct: dict = field(default_factory=lambda: {"maxN": 512, "maxM": 128})
    device: str = "cuda"
