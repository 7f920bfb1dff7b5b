import jax
import jax.numpy as jnp


def attention(q, k, v, tokens):
    valid = tokens != 0  # (B, K)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    big_neg = jnp.finfo(logits.dtype).min
    logits = jnp.where(valid[:, None, None, :], logits, big_neg)
    w = jax.nn.softmax(logits, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", w, v)
