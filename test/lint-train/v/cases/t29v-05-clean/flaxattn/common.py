from typing import Callable, Optional, Tuple

import jax
from jax import Array

# score_mod(score, b, h, q_idx, kv_idx) -> score ; mask_mod(b, h, q_idx, kv_idx) -> bool
ScoreMod = Callable[[Array, Array, Array, Array, Array], Array]
MaskMod = Callable[[Array, Array, Array, Array], Array]


def vmap_for_bhqkv(fn: Callable, prefix: Tuple[Optional[int], ...], out_axes=0) -> Callable:
    """Lift a per-element score_mod / mask_mod to the [b, h, q_idx, kv_idx] grid.

    The innermost vmap maps kv_idx, the outermost maps b, so the result is laid out
    [b, h, q_idx, kv_idx] like the scores."""
    dimensions = [
        (None, None, None, 0),  # kv_idx
        (None, None, 0, None),  # q_idx
        (None, 0, None, None),  # head
        (0, None, None, None),  # batch
    ]
    for dims in dimensions:
        fn = jax.vmap(fn, in_axes=prefix + dims, out_axes=out_axes)
    return fn


def identity(score, b, h, q_idx, kv_idx):
    return score


def no_mask(b, h, q_idx, kv_idx):
    return q_idx >= 0


def causal_mask(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx
