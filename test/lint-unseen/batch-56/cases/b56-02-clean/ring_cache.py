"""Fixed-size ring buffer of keys and values, one slot per decoded token, shared by all layers."""
from typing import NamedTuple

import jax.numpy as jnp


class RingCache(NamedTuple):
    keys: jnp.ndarray    # (layers, slots, heads, head_dim)
    values: jnp.ndarray  # (layers, slots, heads, head_dim)
    cursor: jnp.ndarray  # slot the current token writes to
    filled: jnp.ndarray  # slots written before the current token (at most `slots`)
    seen: jnp.ndarray    # tokens processed so far (absolute position of the current one)


def empty_cache(layers: int, slots: int, heads: int, head_dim: int) -> RingCache:
    shape = (layers, slots, heads, head_dim)
    zero = jnp.array(0)
    return RingCache(jnp.zeros(shape), jnp.zeros(shape), zero, zero, zero)


def write_layer(cache: RingCache, layer: int, k: jnp.ndarray, v: jnp.ndarray) -> RingCache:
    return cache._replace(
        keys=cache.keys.at[layer, cache.cursor].set(k),
        values=cache.values.at[layer, cache.cursor].set(v),
    )


def step_done(cache: RingCache) -> RingCache:
    """Called once per token after every layer has written its slot."""
    slots = cache.keys.shape[1]
    return cache._replace(
        cursor=(cache.cursor + 1) % slots,
        filled=jnp.minimum(cache.filled + 1, slots),
        seen=cache.seen + 1,
    )
