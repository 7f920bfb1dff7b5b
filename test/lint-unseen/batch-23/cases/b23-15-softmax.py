# case: b23-15-softmax
# modelled-on: daniallegue/numpy-transformer https://github.com/daniallegue/numpy-transformer/commit/f7365fd4a710c20d4f5ba2caa52ba7617090c7ba
# label: buggy
# class: real-bug
# pattern: a functional Transformer in jax.numpy (weights passed as arrays, no framework layers): a hand-written softmax(x, axis) helper (max-subtracted exp over the given axis), a scaled dot-product function on 3-D (batch * heads, seq, d_k) arrays that computes q @ swapaxes(k, -1, -2) / sqrt(d_k), puts -1e9 where a boolean mask is True with jnp.where, and normalises with softmax(score, axis=1); the multi-head function splits heads with reshape + swapaxes(1, 2) and flattens them into the leading axis before calling it
# why: buggy: the flattened scores are (batch * heads, seq_q, seq_k), so axis=1 is the query axis: each key's column is normalised over the queries, and the rows that multiply the values do not sum to one; the helper's own default (the last axis, the keys) was right. The same call was in the author's NumPy version of the file before the port to JAX (no fix exists). The scale and the key transpose are right
# source: https://github.com/daniallegue/numpy-transformer https://github.com/daniallegue/numpy-transformer/commit/f7365fd4a710c20d4f5ba2caa52ba7617090c7ba transformer_architecture.py
from typing import Optional, Tuple

import jax.numpy as jnp
from jax import Array


def softmax(x: Array, axis: int = -1) -> Array:
    """Softmax along one axis (the last by default)."""
    top = jnp.max(x, axis=axis, keepdims=True)
    e = jnp.exp(x - top)
    return e / jnp.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(q: Array, k: Array, v: Array, mask: Optional[Array] = None) -> Tuple[Array, Array]:
    """q, k, v: (batch * heads, seq, d_k); mask is True where attention is blocked."""
    d_k = k.shape[-1]
    score = jnp.matmul(q, jnp.swapaxes(k, -1, -2))
    score = score / jnp.sqrt(d_k)
    if mask is not None:
        score = jnp.where(mask, -1e9, score)
    weights = softmax(score, axis=1)  # expect: ATT001
    return jnp.matmul(weights, v), weights


def multi_head_attention(q: Array, k: Array, v: Array, Wq: Array, Wk: Array, Wv: Array, Wo: Array,
                         mask: Optional[Array] = None, h: int = 8) -> Tuple[Array, Array]:
    """q, k, v: (batch, seq, d_model); Wq, Wk, Wv, Wo: (d_model, d_model)."""
    b, n, d_model = q.shape
    assert d_model % h == 0
    d_k = d_model // h
    Q = jnp.swapaxes(jnp.matmul(q, Wq).reshape(b, n, h, d_k), 1, 2)  # (b, h, n, d_k)
    K = jnp.swapaxes(jnp.matmul(k, Wk).reshape(b, n, h, d_k), 1, 2)
    V = jnp.swapaxes(jnp.matmul(v, Wv).reshape(b, n, h, d_k), 1, 2)
    if mask is not None and mask.ndim == 4 and mask.shape[1] == 1:
        mask = jnp.repeat(mask, h, axis=1)
    flat_mask = mask.reshape(b * h, n, n) if mask is not None else None
    out, weights = scaled_dot_product_attention(
        Q.reshape(b * h, n, d_k), K.reshape(b * h, n, d_k), V.reshape(b * h, n, d_k), flat_mask
    )
    out = jnp.swapaxes(out.reshape(b, h, n, d_k), 1, 2).reshape(b, n, d_model)
    return jnp.matmul(out, Wo), weights.reshape(b, h, n, n)


def causal_mask(n: int) -> Array:
    """(1, 1, n, n), True above the diagonal (the future)."""
    return jnp.triu(jnp.ones((n, n), dtype=bool), k=1)[None, None]
