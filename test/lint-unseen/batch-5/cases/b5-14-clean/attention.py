# case: b5-14-clean
# modelled-on: DjDonPablo/jax-transformer https://github.com/DjDonPablo/jax-transformer/commit/4735523e9f94f06d10940e4e3a4f262e312051f0
# label: correct
# class: clean
# pattern: a JAX transformer written in column layout: a token matrix x is (embedding, tokens), the per-head weights are (heads, d_k, embedding), so queries and keys are (heads, d_k, tokens) and the scores are keys.mT @ queries, of shape (heads, n_keys, n_queries); the causal mask is triu(ones) over that matrix, filled with -inf by jnp.where, and the softmax is a hand-written helper in another module that normalises over axis 1 (the keys); the function is vmapped over the batch
# why: correct: with keys on the rows, triu keeps key <= query (the causal past), the softmax over axis 1 normalises each query's column over its keys, and values (heads, d_v, n_keys) @ weights (heads, n_keys, n_queries) sums the values with those weights; the scale is sqrt(d_k)
# looks-like: ATT001, ATT002, ATT005
# source: https://github.com/DjDonPablo/jax-transformer https://github.com/DjDonPablo/jax-transformer/commit/4735523e9f94f06d10940e4e3a4f262e312051f0 src/layers/attention.py
from typing import Dict

import jax
import jax.numpy as jnp
from jax import random
from jax.nn import initializers

from utils import softmax_columns


@jax.jit
def column_attention(weights: Dict[str, jnp.ndarray], x: jnp.ndarray, scale: float) -> jnp.ndarray:
    # x: (emb, T); q, k: (heads, d_k, T)
    q = jnp.matmul(weights["wq"], x)
    k = jnp.matmul(weights["wk"], x)
    # (heads, T_k, d_k) @ (heads, d_k, T_q) -> (heads, T_k, T_q)
    dots = jnp.matmul(k.mT, q) / scale
    keep = jnp.triu(jnp.ones_like(dots))
    masked = jnp.where(keep, dots, float("-inf"))
    probs = softmax_columns(masked)
    v = jnp.matmul(weights["wv"], x)  # (heads, d_v, T_k)
    mixed = jnp.matmul(v, probs)  # (heads, d_v, T_q)
    stacked = jnp.concatenate(mixed, axis=0)
    return jnp.dot(weights["wo"], stacked)


class ColumnAttention:
    def __init__(self, heads: int, d_k: int, emb: int) -> None:
        self.shape = (heads, d_k, emb)
        self.scale = jnp.sqrt(d_k)

    def init_weights(self, key) -> Dict[str, jnp.ndarray]:
        _, *keys = random.split(key, 5)
        init = initializers.glorot_normal()
        h, d, e = self.shape
        return {
            "wq": init(key=keys[0], shape=self.shape, dtype=jnp.float32),
            "wk": init(key=keys[1], shape=self.shape, dtype=jnp.float32),
            "wv": init(key=keys[2], shape=self.shape, dtype=jnp.float32),
            "wo": init(key=keys[3], shape=(e, h * d), dtype=jnp.float32),
        }

    def __call__(self, weights, x):
        # x: (batch, emb, T)
        return jax.vmap(column_attention, in_axes=[None, 0, None])(weights, x, self.scale)
