import dataclasses
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TransformerConfig:
    vocab: int = 32000
    d: int = 512
    heads: int = 8
    dtype: jnp.dtype = jnp.bfloat16
