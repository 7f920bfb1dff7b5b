# case: fill-equinox-where-neginf-all-masked
# modelled-on: patrick-kidger/equinox https://github.com/patrick-kidger/equinox/pull/274
# label: buggy
# class: real-bug
# pattern: JAX library attention on unbatched (q_seq, kv_seq) arrays; a user-supplied boolean keep mask applied with jnp.where and -inf, the shape check raises for the wrong shape but a row with no True is allowed
# why: a query row whose mask is all False gets -inf for every key, and jax.nn.softmax of an all -inf row is NaN (the PR's example produces a NaN row); the fix fills with jnp.finfo(dtype).min so the row stays finite
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
    logits = jnp.einsum("qd,kd->qk", queries, keys)  # (q_seq, kv_seq)
    logits = logits / math.sqrt(queries.shape[-1])
    if keep is not None:
        if keep.shape != logits.shape:
            raise ValueError(
                f"keep must have shape (q_seq, kv_seq)=({queries.shape[0]}, {keys.shape[0]}), got {keep.shape}"
            )
        logits = jnp.where(keep, logits, -jnp.inf)  # expect: ATT007
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
