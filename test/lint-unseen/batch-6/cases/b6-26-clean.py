# case: b6-26-clean
# modelled-on: vigp17/jax-transformer https://github.com/vigp17/jax-transformer/commit/4fa1bf8dbfa25cc7b1e8aa34b7182a3dee8c9fa1
# label: correct
# class: clean
# pattern: a pure-functional JAX language model (parameters in dicts, no Flax): multi_head_attention projects with params["wq"] etc., splits heads with reshape + transpose((0, 2, 1, 3)), and scaled_dot_product_attention multiplies queries by keys.transpose((0, 1, 3, 2)), divides by sqrt(d_k) taken from the queries' last axis, keeps jnp.where(tril(ones, bool), scores, -1e9) for causal attention and softmaxes over axis=-1 with jax.nn
# why: correct: the transpose swaps only the keys' last two axes, d_k is the per-head width (d_model // num_heads), tril marks the allowed (past) positions and jnp.where keeps the scores there, -1e9 is safe in float32, and the softmax runs over the keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/vigp17/jax-transformer https://github.com/vigp17/jax-transformer/commit/4fa1bf8dbfa25cc7b1e8aa34b7182a3dee8c9fa1 model/attention.py
import jax.numpy as jnp
from jax import nn, random


def init_attention_weights(key, d_model):
    kq, kk, kv, ko = random.split(key, 4)
    scale = jnp.sqrt(d_model)
    return {name: random.normal(k, (d_model, d_model)) / scale for name, k in zip(("wq", "wk", "wv", "wo"), (kq, kk, kv, ko))}


def scaled_dot_product_attention(queries, keys, values, causal=True):
    """queries, keys, values: (batch, heads, seq, d_k)."""
    seq_len = queries.shape[-2]
    d_k = queries.shape[-1]
    scores = jnp.matmul(queries, keys.transpose((0, 1, 3, 2))) / jnp.sqrt(d_k)
    if causal:
        mask = jnp.tril(jnp.ones((seq_len, seq_len), dtype=bool))
        scores = jnp.where(mask, scores, -1e9)
    weights = nn.softmax(scores, axis=-1)
    return jnp.matmul(weights, values), weights


def multi_head_attention(params, x, num_heads, causal=True):
    batch_size, seq_len, d_model = x.shape
    assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
    d_k = d_model // num_heads
    queries = jnp.matmul(x, params["wq"])
    keys = jnp.matmul(x, params["wk"])
    values = jnp.matmul(x, params["wv"])

    def split_heads(t):
        return t.reshape((batch_size, seq_len, num_heads, d_k)).transpose((0, 2, 1, 3))  # (batch, heads, seq, d_k)

    qs, ks, vs = map(split_heads, (queries, keys, values))
    context, weights = scaled_dot_product_attention(qs, ks, vs, causal=causal)
    context = context.transpose((0, 2, 1, 3)).reshape((batch_size, seq_len, d_model))
    return jnp.matmul(context, params["wo"]), weights
