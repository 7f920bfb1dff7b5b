# case: b28-10-scale
# modelled-on: cwhy/nn-jam https://github.com/cwhy/nn-jam/commit/bd7a2960da4430850c60664ce04ca794a5fafb73
# label: buggy
# class: real-bug
# pattern: a JAX experiments repository re-deriving nanoGPT step by step: a single causal attention head as a pure function of a weight mapping, logits = x @ W_q @ (x @ W_k).T on one (T, C) sequence, a jnp.tril ones mask applied with jnp.where(mask == 0, -inf, logits), jax.nn.softmax over axis=-1, weights @ x @ W_v; a component declares the (C, head_size) weight shapes
# why: buggy: the (T, T) logits are products of head_size-wide projections and are never divided by sqrt(head_size) (nor is either projection scaled) before the softmax, so the head computes unscaled dot-product attention; the causal mask (tril == 0 picks the future keys) and the softmax axis are right. The repository's non-causal sibling function (left out) multiplies the weights by the raw value matrix instead of x @ W_v, a defect no rule describes. No fixed version exists
# source: https://github.com/cwhy/nn-jam https://github.com/cwhy/nn-jam/commit/bd7a2960da4430850c60664ce04ca794a5fafb73 scripts/nanogpt/attention.py
from typing import Mapping

import jax.numpy as xp
from jax import Array
from jax.nn import softmax


def causal_head(params: Mapping[str, Array], x: Array) -> Array:
    w_q, w_k, w_v = params['q'], params['k'], params['v']
    logits = x @ w_q @ (x @ w_k).T
    keep = xp.tril(xp.ones((x.shape[0], x.shape[0])))
    weights = softmax(xp.where(keep == 0, -xp.inf, logits), axis=-1)  # expect: ATT003
    return weights @ x @ w_v


def head_shapes(head_size: int, dim_input: int) -> dict:
    return {name: (dim_input, head_size) for name in ('q', 'k', 'v')}
