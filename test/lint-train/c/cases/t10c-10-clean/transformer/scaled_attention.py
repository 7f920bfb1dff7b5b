# case: t10c-10-clean
# modelled-on: TASPlasma/transformer https://github.com/TASPlasma/transformer/commit/ad82b96
# label: correct
# class: clean
# pattern: an Equinox attention head on one unbatched (seq_len, d) example: keys transposed with k.T, a 0/1 keep mask from the model module turned additive as (mask - 1) * 1e9, and a look-ahead mask subtracted as triu(ones, k=1) * 1e9, softmax over the default last axis
# why: the keep mask is 1 on real rows (the model's create_pad_mask docstring), so (mask - 1) * 1e9 is 0 there and -1e9 on padding, broadcast over the key axis; triu with k=1 is the strict future; k.T of a 2-D array is the usual key transpose; everything runs in float32
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/TASPlasma/transformer https://github.com/TASPlasma/transformer/commit/ad82b96 transformer/scaled_attention.py
from typing import Tuple

import equinox as eqx
import jax
import jax.numpy as jnp


class ScaledDotProdAttention(eqx.Module):
    """masked: use a look-ahead mask (decoder self-attention)."""

    masked: bool
    shape: Tuple[int, int]

    def __init__(self, seq_len: int, masked: bool = False):
        self.masked = masked
        self.shape = (seq_len, seq_len)

    def __call__(self, q, k, v, mask=None):
        """q, k: (seq_len, d_k); v: (seq_len, d_v); mask: (seq_len,) 0/1, 1 on real rows."""
        d_k = q.shape[-1]
        logits = jnp.matmul(q, k.T) / jnp.sqrt(d_k)  # (seq_len, seq_len)
        if mask is not None:
            logits += (mask - 1) * 1e9
        if self.masked:
            look_ahead = jnp.triu(jnp.ones(shape=self.shape), k=1)
            logits -= look_ahead * 1e9
        return jnp.matmul(jax.nn.softmax(logits), v)
