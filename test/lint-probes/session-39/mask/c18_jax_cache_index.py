import jax
import jax.numpy as jnp


def decode_step(q, k, v, cache_k, cache_v, index):
    # q, k, v: (H, 1, D); cache_*: (H, MAX, D); index: position of this token
    cache_k = jax.lax.dynamic_update_slice(cache_k, k, (0, index, 0))
    cache_v = jax.lax.dynamic_update_slice(cache_v, v, (0, index, 0))
    MAX = cache_k.shape[1]
    valid = jnp.arange(MAX)[None, None, :] <= index  # (1, 1, MAX)
    s = jnp.einsum("hqd,hkd->hqk", q, cache_k) / jnp.sqrt(q.shape[-1])
    s = jnp.where(valid, s, -1e10)
    out = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), cache_v)
    return out, cache_k, cache_v
