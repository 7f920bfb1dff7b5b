import jax
import jax.numpy as jnp


def scaled_attention(query, key, value, mask=None):
    """query, key, value: [batch, length, heads, head_dim]."""
    head_dim = query.shape[-1]
    query = query * (head_dim ** -0.5)
    logits = jnp.einsum("bqhd,bkhd->bhqk", query, key)
    if mask is not None:
        logits = jnp.where(mask, logits, jnp.finfo(logits.dtype).min)
    weights = jax.nn.softmax(logits, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", weights, value)
