import jax
import jax.numpy as jnp


def mha(q, k, v, mask=None):
    # q: (B, T, H, D), k, v: (B, S, H, D)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    if mask is not None:
        logits = jnp.where(mask[:, None, None, :], logits, -1e30)
    w = jax.nn.softmax(logits, axis=3)
    return jnp.einsum("bhqk,bkhd->bqhd", w, v)
