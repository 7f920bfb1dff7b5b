import jax.numpy as jnp

from ring_cache import RingCache


def live_slots(cache: RingCache) -> jnp.ndarray:
    """Boolean (slots,) mask, True where a slot holds a token the current one may read.

    Tokens are fed one at a time (the prompt too, through a scan), so every slot that
    holds anything holds the past or the current token: no causal triangle is needed,
    only the slots not written yet are hidden. The current token's slot is written
    before attention runs, so it counts as live.
    """
    slots = cache.keys.shape[1]
    written = jnp.minimum(cache.filled + 1, slots)
    return jnp.arange(slots) < written
