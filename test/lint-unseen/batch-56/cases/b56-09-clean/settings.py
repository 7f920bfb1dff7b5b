from dataclasses import dataclass, field


@dataclass
class AttentionSettings:
    kind: str = "mla"            # "mha", "gqa" or "mla"
    n_heads: int = 12
    n_kv_heads: int = 0          # gqa only; 0 = one per query head
    kv_latent: int = 256         # width of the cached key/value latent (mla)
    q_latent: int = 384          # width of the query latent (mla)
    rope_width: int = 64         # width of the decoupled rotary part of q and k (mla)
    dropout: float = 0.0


@dataclass
class ModelSettings:
    vocab: int = 50304
    width: int = 768
    layers: int = 12
    max_len: int = 1024
    attention: AttentionSettings = field(default_factory=AttentionSettings)

    @property
    def head_width(self) -> int:
        return self.width // self.attention.n_heads
