import jax
import jax.numpy as jnp


def causal_attention(q, k, v):
    # q, k, v: (T, D)
    T = q.shape[0]
    mask = jnp.tril(jnp.ones((T, T), dtype=bool))  # True = visible
    s = q @ k.T / jnp.sqrt(q.shape[-1])  # (T, T)
    s = jnp.where(mask, s, -1e9)
    return jax.nn.softmax(s, axis=-1) @ v
