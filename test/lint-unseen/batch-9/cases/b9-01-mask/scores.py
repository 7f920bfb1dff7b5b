# case: b9-01-mask
# modelled-on: wrsturgeon/jax-attention https://github.com/wrsturgeon/jax-attention/commit/501aa2a7fc46193ccf670311a4fc8bc8c4aa0cc7
# label: buggy
# class: real-bug
# pattern: a small pure-JAX multi-head attention package: the score function builds Q K^T per head, scales by d_k ** -0.5 and hides entries with jnp.where(mask, -inf, scores), where the boolean mask (True = hide) comes from a helper module that compares broadcast index vectors
# why: buggy: in the helper `row` holds the column index and `col` the row index, so `row < col` is True below the diagonal: every query is blocked from the past and sees the future, the opposite of the helper's own docstring ("hide every entry whose column index is larger than its row index"); the fix commit 1f9f5ad flips the comparison to `row > col`
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
        logits = jnp.where(hide, -jnp.inf, logits)  # expect: ATT002

    # rows become probability distributions over the keys
    return jnn.softmax(logits)


def attend(q, k, v, causal: bool = True):
    return attention_weights(q, k, causal) @ v
