from beartype.typing import Tuple
from jax import numpy as jnp


def future_mask(shape: Tuple):
    """
    Keeps a token from being influenced by the tokens after it.

    Rows of (Q K^T) are the querying tokens and columns the tokens they look at, so every entry
    whose column index is larger than its row index must be hidden. True means "hide", False
    means "let through":
        [ 0 0 0 0 ]
        [ 1 0 0 0 ]
        [ 1 1 0 0 ]
        [ 1 1 1 0 ]
    """
    n, m = shape[-2:]
    assert n == m, f"expected square score matrices, got (..., {n}, {m})"

    idx = jnp.arange(n)
    row = idx[jnp.newaxis]  # (1, n)
    col = idx[:, jnp.newaxis]  # (n, 1)

    # "is this entry below the diagonal?"
    hidden = row < col

    return hidden.reshape(*[1 for _ in shape[:-2]], n, n)
