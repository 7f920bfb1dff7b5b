from flax import linen as nn
from jax import numpy as jnp


class HeadMixer(nn.Module):
    """Learned (heads x heads) projection across the head axis of (..., h, q, k) logits or weights."""

    num_heads: int

    @nn.compact
    def __call__(self, x):
        proj = self.param("head_mix", nn.initializers.orthogonal(), (self.num_heads, self.num_heads))
        return jnp.einsum("h i, ... h q k -> ... i q k", proj, x)
