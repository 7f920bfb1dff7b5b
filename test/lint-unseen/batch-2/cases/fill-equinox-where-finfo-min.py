# case: fill-equinox-where-finfo-min
# modelled-on: patrick-kidger/equinox https://github.com/patrick-kidger/equinox/pull/274
# label: correct
# class: fixed
# pattern: JAX library attention on unbatched (q_seq, kv_seq) arrays; a user-supplied boolean keep mask applied with jnp.where and the dtype minimum; queries pre-scaled before the einsum
# why: the fix of the PR: masked logits get jnp.finfo(dtype).min, so a fully masked row is uniform instead of NaN and every other row is unchanged; the scale is moved onto the queries before the product, which is the same 1/sqrt(d)
# looks-like: ATT003, ATT007
# source: https://github.com/patrick-kidger/equinox https://github.com/patrick-kidger/equinox/commit/baca71346529165103bacafad3b0dfa1917a823d equinox/nn/attention.py
import math
from typing import Optional

import jax
import jax.numpy as jnp


def attention_weights(
    queries: jnp.ndarray,  # (q_seq, qk_size)
    keys: jnp.ndarray,  # (kv_seq, qk_size)
    keep: Optional[jnp.ndarray] = None,  # (q_seq, kv_seq) bool, True = may attend
) -> jnp.ndarray:
    queries = queries / math.sqrt(queries.shape[-1])
    logits = jnp.einsum("qd,kd->qk", queries, keys)  # (q_seq, kv_seq)
    if keep is not None:
        if keep.shape != logits.shape:
            raise ValueError(
                f"keep must have shape (q_seq, kv_seq)=({queries.shape[0]}, {keys.shape[0]}), got {keep.shape}"
            )
        logits = jnp.where(keep, logits, jnp.finfo(logits.dtype).min)
    return jax.nn.softmax(logits, axis=-1)  # (q_seq, kv_seq)


def attend(queries, keys, values, keep=None):
    # values: (kv_seq, v_size) -> (q_seq, v_size)
    weights = attention_weights(queries, keys, keep)
    return jnp.einsum("qk,kv->qv", weights, values)


class HeadedAttention:
    def __init__(self, num_heads: int, size: int, key: jax.Array):
        k1, k2, k3 = jax.random.split(key, 3)
        self.num_heads = num_heads
        self.head = size // num_heads
        self.wq = jax.random.normal(k1, (size, size)) / math.sqrt(size)
        self.wk = jax.random.normal(k2, (size, size)) / math.sqrt(size)
        self.wv = jax.random.normal(k3, (size, size)) / math.sqrt(size)

    def __call__(self, x, context, keep=None):
        # x: (q_seq, size), context: (kv_seq, size)
        q = (x @ self.wq).reshape(x.shape[0], self.num_heads, self.head)
        k = (context @ self.wk).reshape(context.shape[0], self.num_heads, self.head)
        v = (context @ self.wv).reshape(context.shape[0], self.num_heads, self.head)
        per_head = jax.vmap(attend, in_axes=(1, 1, 1, None), out_axes=1)(q, k, v, keep)
        return per_head.reshape(x.shape[0], -1)
