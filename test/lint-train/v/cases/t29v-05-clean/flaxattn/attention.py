# case: t29v-05-clean
# modelled-on: zinccat/flaxattention https://github.com/zinccat/flaxattention/commit/cf81fc4c76a1884447f573cc216725c2e1879cec
# label: correct
# class: clean
# pattern: a pure-JAX port of PyTorch's FlexAttention: flax_attention takes [B, H, L, E] query/key/value, checks the query and key widths agree, allows grouped-query heads (enable_gqa, Hq a multiple of Hkv), defaults scale to 1 / math.sqrt(query.shape[-1]) and passes it down; the math path jnp.repeat's key and value over axis 1 by G = Hq // Hkv, forms the raw scores with jnp.matmul(query, jnp.swapaxes(key, -2, -1)) in float32, multiplies by `scale` only afterwards (next to the vmapped score_mod and mask_mod), fills masked positions with -inf, takes the logsumexp over axis -1 and divides it by log 2 (the kernels work in base 2), and normalises with jax.nn.softmax(axis=-1, where=scores != -inf); the example runs 8 query heads over 2 kv heads with a tanh soft-cap score_mod and a causal mask_mod
# why: correct: the unscaled matmul is scaled two statements later by the caller-chosen `scale`, whose default is 1/sqrt(E) with E the last axis of a [B, H, L, E] query, one head's width; repeating kv heads over axis 1 changes neither width; swapaxes(key, -2, -1) turns [B, H, S, E] into [B, H, E, S], so the scores are [B, H, L, S] and axis=-1 is the key axis; the division of the logsumexp by log 2 converts it to base 2 for the kernels and touches neither the weights nor the output (flax_attention multiplies it back); the soft-cap multiplies by its cap after tanh, which bounds the logits by design
# looks-like: ATT003, ATT004, ATT005, ATT001
# source: https://github.com/zinccat/flaxattention https://github.com/zinccat/flaxattention/commit/cf81fc4c76a1884447f573cc216725c2e1879cec flaxattention/core/attention.py, flaxattention/core/common.py, examples/example.py
import math
from typing import Optional, Tuple

import jax
import jax.numpy as jnp
from jax import Array

from .common import MaskMod, ScoreMod, identity, no_mask, vmap_for_bhqkv


def _math_attention_inner(query, key, score_mod, mask_mod, scale):
    working_precision = jnp.float64 if query.dtype == jnp.float64 else jnp.float32

    scores = jnp.matmul(query, jnp.swapaxes(key, -2, -1)).astype(working_precision)

    b_size, h_size, m_size, n_size = scores.shape
    b_idx, h_idx = jnp.arange(b_size), jnp.arange(h_size)
    m_idx, n_idx = jnp.arange(m_size), jnp.arange(n_size)

    score_mod = vmap_for_bhqkv(score_mod, prefix=(0,))
    mask_mod = vmap_for_bhqkv(mask_mod, prefix=())

    # Scaling
    scores = (scores * scale).astype(working_precision)

    mask = mask_mod(b_idx, h_idx, m_idx, n_idx).astype(jnp.bool_)
    post_mod_scores = jnp.where(mask, score_mod(scores, b_idx, h_idx, m_idx, n_idx), -jnp.inf)
    return scores, post_mod_scores


def math_attention(query, key, value, score_mod, mask_mod, scale) -> Tuple[Array, Array]:
    # broadcast key and value along the head axis for GQA
    G = query.shape[1] // key.shape[1]
    value = jnp.repeat(value, G, axis=1)
    key = jnp.repeat(key, G, axis=1)

    _, post_mod_scores = _math_attention_inner(query, key, score_mod, mask_mod, scale)

    logsumexp = jax.scipy.special.logsumexp(post_mod_scores, axis=-1)
    masked_rows = jnp.all(post_mod_scores == -jnp.inf, axis=-1)
    logsumexp = jnp.where(masked_rows, -jnp.inf, logsumexp)

    weights = jax.nn.softmax(post_mod_scores, axis=-1, where=(post_mod_scores != -jnp.inf))
    output = jnp.matmul(weights.astype(query.dtype), value)
    return output, logsumexp / jnp.log(2)


def flax_attention(
    query: Array,
    key: Array,
    value: Array,
    score_mod: Optional[ScoreMod] = None,
    mask_mod: Optional[MaskMod] = None,
    scale: Optional[float] = None,
    enable_gqa: bool = False,
    return_lse: bool = False,
):
    if query.ndim != 4 or key.ndim != 4 or value.ndim != 4:
        raise NotImplementedError("query, key and value must be [B, H, L, E]")
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(f"query and key widths differ: {query.shape[-1]} vs {key.shape[-1]}")
    if not enable_gqa and query.shape[-3] != key.shape[-3]:
        raise ValueError("Hq != Hkv: set enable_gqa=True for grouped-query attention")
    if enable_gqa and query.shape[1] % key.shape[1] != 0:
        raise ValueError("Hq must be a multiple of Hkv")

    if score_mod is None:
        score_mod = identity
    if mask_mod is None:
        mask_mod = no_mask
    if scale is None:
        scale = 1.0 / math.sqrt(query.shape[-1])
    out, lse = math_attention(query, key, value, score_mod, mask_mod, scale)
    if return_lse:
        return out, lse * jnp.log(2)
    return out
