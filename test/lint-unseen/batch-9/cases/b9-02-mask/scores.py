# case: b9-02-mask
# modelled-on: wrsturgeon/jax-attention https://github.com/wrsturgeon/jax-attention/commit/1f9f5ad8ef829e7bc8f802f87fb5d647298a8b11
# label: correct
# class: fixed
# pattern: a small pure-JAX multi-head attention package: the score function builds Q K^T per head, scales by d_k ** -0.5 and hides entries with jnp.where(mask, -inf, scores), where the boolean mask (True = hide) comes from a helper module that compares broadcast index vectors
# why: correct: after the fix the helper compares `row > col` (column index > row index), True strictly above the diagonal, so jnp.where hides exactly the future keys; the diagonal stays visible so no row is all -inf, and jax.nn.softmax normalises over the last (key) axis
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/wrsturgeon/jax-attention https://github.com/wrsturgeon/jax-attention/commit/1f9f5ad8ef829e7bc8f802f87fb5d647298a8b11 jax_attn/mask.py
from jax import nn as jnn, numpy as jnp

from causal import future_mask


def attention_weights(q, k, causal: bool):
    """
    q, k: (*batch, head, seq, d_k). Returns softmax(Q K^T / sqrt(d_k)) per head, (*batch, head, seq, seq).
    """
    logits = jnp.einsum("...qd,...kd->...qk", q, k)
    logits = logits * jnp.power(q.shape[-1], -0.5)

    if causal:
        hide = future_mask(logits.shape)
        logits = jnp.where(hide, -jnp.inf, logits)

    # rows become probability distributions over the keys
    return jnn.softmax(logits)


def attend(q, k, v, causal: bool = True):
    return attention_weights(q, k, causal) @ v
