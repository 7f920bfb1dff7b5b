import flax.linen as nn
import jax.numpy as jnp


def dot_attention(q, k, v):
    """q, k, v: (..., tokens, head_width). Returns (values, weights)."""
    width = q.shape[-1]
    logits = jnp.einsum("...qd,...kd->...qk", q, k) / jnp.sqrt(width)
    weights = nn.softmax(logits, axis=-1)
    return jnp.einsum("...qk,...kd->...qd", weights, v), weights
