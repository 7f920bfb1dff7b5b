from functools import reduce
from operator import mul

import jax.numpy as jnp


def roll_spatial(x, shifts):
    """x: (B, *spatial, C); rolls spatial axis i by -shifts[i]."""
    for axis, s in enumerate(shifts):
        if s != 0:
            x = jnp.roll(x, shift=-s, axis=axis + 1)
    return x


def to_windows(x, window):
    """(B, *spatial, C) -> (B * num_windows, *window, C), windows of one image consecutive."""
    b, spatial, c = x.shape[0], x.shape[1:-1], x.shape[-1]
    grid = [s // w for s, w in zip(spatial, window)]
    shape = [b]
    for g, w in zip(grid, window):
        shape += [g, w]
    x = x.reshape(*shape, c)
    n = len(window)
    order = [0] + [1 + 2 * i for i in range(n)] + [2 + 2 * i for i in range(n)] + [1 + 2 * n]
    return x.transpose(order).reshape(-1, *window, c)


def same_window_mask(spatial, window, shift):
    """(num_windows, area, area) bool: True where query and key come from the same unshifted window."""
    area = reduce(mul, window, 1)
    grid = [s // w for s, w in zip(spatial, window)]
    ids = jnp.zeros(spatial, dtype=jnp.int32)
    stride = 1
    for dim in range(len(spatial) - 1, -1, -1):
        shape = [1] * len(spatial)
        shape[dim] = spatial[dim]
        ids = ids + (jnp.arange(spatial[dim]) // window[dim]).reshape(shape) * stride
        stride *= grid[dim]
    ids = roll_spatial(ids[None, ..., None], tuple(-s for s in shift))
    ids = to_windows(ids, window).reshape(-1, area)
    return ids[:, :, None] == ids[:, None, :]


def shifted_window_bias(spatial, window, shift, dtype=jnp.float32):
    """Additive bias: 0 where attention is allowed, -inf across source windows; (num_windows, 1, area, area)."""
    allowed = same_window_mask(spatial, window, shift)
    return jnp.where(allowed, 0.0, -jnp.inf).astype(dtype)[:, None, :, :]


def padded_key_bias(original, padded, window, shift, dtype=jnp.float32):
    if original == padded:
        return None
    valid = jnp.ones(padded, dtype=jnp.bool_)
    for dim, size in enumerate(original):
        shape = [1] * len(padded)
        shape[dim] = padded[dim]
        valid = valid & (jnp.arange(padded[dim]) < size).reshape(shape)
    valid = roll_spatial(valid[None, ..., None].astype(jnp.float32), tuple(-s for s in shift))
    area = reduce(mul, window, 1)
    keys = to_windows(valid, window).reshape(-1, area) > 0.5
    pairs = jnp.broadcast_to(keys[:, None, :], (keys.shape[0], area, area))
    return jnp.where(pairs, 0.0, -jnp.inf).astype(dtype)[:, None, :, :]
