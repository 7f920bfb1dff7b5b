import functools

import jax
import jax.numpy as jnp


def _decay_matrix(gamma, T):
    # [T, T]: gamma ** (n - m) on and below the diagonal, 0 above it
    t = jnp.arange(T, dtype=gamma.dtype)
    diff = jnp.expand_dims(t, 1) - jnp.expand_dims(t, 0)
    D = gamma**diff
    return jnp.where(diff >= 0, D, jnp.zeros_like(D))


def _retention_block(query, keys, values, gamma, *, rescale=True):
    """query, keys: [T, d_k]; values: [T, d_v]; gamma: scalar. Returns [T, d_v]."""
    QK = query @ keys.T
    QKD = QK * _decay_matrix(gamma, query.shape[0])
    if rescale:
        norm = jnp.abs(jnp.sum(QKD, axis=-1, keepdims=True))
        norm = jnp.maximum(norm, jnp.ones_like(norm))
        QKD = QKD / norm
    return jnp.matmul(QKD, values)


def _retention_update(query, keys, values, cache, gamma):
    """One recurrent step: query, keys: [d_k]; values: [d_v]; cache: [d_k, d_v]."""
    cache = gamma * cache + keys[:, None] * values
    return jnp.matmul(query, cache), cache


def retention(query, keys, values, gamma, **kwargs):
    """[B?, T, d] inputs; the batch is mapped over with vmap."""
    fn = functools.partial(_retention_block, gamma=gamma, **kwargs)
    if query.ndim == 3:
        fn = jax.vmap(fn, in_axes=0, out_axes=0)
    return fn(query, keys, values)


def _unbatched_multi_head_retention(query, keys, values, gamma, **kwargs):
    """[T, H, d] inputs and one gamma per head: the heads are mapped over (axis 1)."""
    return jax.vmap(functools.partial(retention, **kwargs), in_axes=(1, 1, 1, 0), out_axes=1)(
        query, keys, values, gamma
    )


def multi_head_retention(query, keys, values, gamma, **kwargs):
    """[B?, T, H, d] inputs, gamma [H]. Returns [B?, T, H, d_v]."""
    if query.ndim == 4:
        return jax.vmap(functools.partial(_unbatched_multi_head_retention, gamma=gamma, **kwargs))(
            query, keys, values
        )
    return _unbatched_multi_head_retention(query, keys, values, gamma, **kwargs)


def multi_head_retention_update(query, keys, values, cache, gamma):
    """One decoding step for every head: query, keys [B, H, d_k], cache [B, H, d_k, d_v]."""
    step = jax.vmap(_retention_update, in_axes=(0, 0, 0, 0, 0))
    return jax.vmap(lambda q, k, v, c: step(q, k, v, c, gamma))(query, keys, values, cache)
