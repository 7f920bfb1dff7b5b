import jax
import jax.numpy as jnp


def attention(q, k, v, segment_ids):
    """q, k, v: [B, T, H, D] in bfloat16; tokens attend within their own packed segment, causally."""
    logits = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    T = q.shape[1]
    causal = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_))
    same = segment_ids[:, :, None] == segment_ids[:, None, :]
    allowed = jnp.logical_and(causal[None], same)[:, None]
    logits = jnp.where(allowed, logits, jnp.finfo(logits.dtype).min)
    w = jax.nn.softmax(logits.astype(jnp.float32), axis=-1).astype(q.dtype)
    return jnp.einsum("bhts,bshd->bthd", w, v)


attention_bf16 = jax.jit(lambda q, k, v, s: attention(q.astype(jnp.bfloat16), k.astype(jnp.bfloat16), v.astype(jnp.bfloat16), s))
