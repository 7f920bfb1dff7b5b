# case: b39-04-clean
# modelled-on: klarh/geometric_algebra_attention https://github.com/klarh/geometric_algebra_attention/commit/df6dcbd0a9c80fb6f0da1939c636fe0f7db7eacf
# label: correct
# class: clean
# pattern: rotation-invariant geometric-algebra attention over pairs of points in JAX, written in the stax (init, apply) style: for every pair (j, k) of a point cloud the layer forms the geometric product r_j r_k, takes its invariants (norms, the scalar part and the bivector norm), maps them to values with a value MLP and to one score per pair with a score MLP; a per-point boolean mask (True = real point) becomes a pair mask by counting (m_j + m_k == 2) and jnp.where(pair_mask, scores, -1e9) drops pairs with padding; the (..., N, N, 1) scores are reshaped to (..., N * N) so that jax.nn.softmax's default last axis runs over all pairs at once, reshaped back, and the weighted values are summed over both pair axes (a pooled output per cloud)
# why: correct: the layer's attention is defined over tuples of points (the softmax over j, k... in the method's own equations), so normalising over the flattened pair axis is the intended axis, not the singleton score axis; the scores come from an MLP on rotation invariants, not from a dot product of projected queries and keys, so there is no 1/sqrt(d) to apply; where() keeps the score where the pair mask is True (both points real), and -1e9 is far below any score in float32
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/klarh/geometric_algebra_attention https://github.com/klarh/geometric_algebra_attention/commit/df6dcbd0a9c80fb6f0da1939c636fe0f7db7eacf geometric_algebra_attention/jax/internal.py
import functools
import operator

import jax
import jax.numpy as jnp

HUGE = 1e9


def norm(x):
    return jnp.linalg.norm(x, axis=-1, keepdims=True)


def vector_product(a, b):
    """Geometric product of two 3-vectors: (scalar, e12, e13, e23)."""
    scalar = jnp.sum(a * b, axis=-1, keepdims=True)
    e12 = a[..., :1] * b[..., 1:2] - a[..., 1:2] * b[..., :1]
    e13 = a[..., :1] * b[..., 2:3] - a[..., 2:3] * b[..., :1]
    e23 = a[..., 1:2] * b[..., 2:3] - a[..., 2:3] * b[..., 1:2]
    return jnp.concatenate([scalar, e12, e13, e23], axis=-1)


class PairVectorAttention:
    """score_fn / value_fn are stax apply functions: fn(params, x) -> y."""

    def __init__(self, score_init, score_fn, value_init, value_fn):
        self.score_init, self.score_fn = score_init, score_fn
        self.value_init, self.value_fn = value_init, value_fn

    def stax_init(self, rng, input_shape):
        width = input_shape[1][-1]
        k_score, k_value = jax.random.split(rng)
        _, score_params = self.score_init(k_score, (width,))
        _, value_params = self.value_init(k_value, (4,))
        return (input_shape[1][0], width), dict(score=score_params, value=value_params)

    def stax_apply(self, params, inputs, mask=None):
        positions, values = inputs
        r_j, r_k = positions[..., :, None, :], positions[..., None, :, :]
        v_j, v_k = values[..., :, None, :], values[..., None, :, :]

        product = vector_product(r_j, r_k)
        grid = product[..., :1].shape
        invariants = jnp.concatenate(
            [jnp.broadcast_to(norm(r_j), grid), jnp.broadcast_to(norm(r_k), grid), product[..., :1], norm(product[..., 1:])],
            axis=-1,
        )
        pair_values = 0.5 * (self.value_fn(params["value"], invariants) + 0.5 * (v_j + v_k))

        scores = self.score_fn(params["score"], pair_values)
        grid_shape = scores.shape
        if mask is not None:
            both = mask[..., :, None, None].astype(jnp.int8) + mask[..., None, :, None].astype(jnp.int8)
            scores = jnp.where(both == 2, scores, -HUGE)

        flat = functools.reduce(operator.mul, grid_shape[-3:], 1)
        scores = jnp.reshape(scores, grid_shape[:-3] + (flat,))
        weights = jnp.reshape(jax.nn.softmax(scores), grid_shape)
        return jnp.sum(weights * pair_values, axis=(-2, -3))
