# case: b40-12-clean
# modelled-on: AlcivanLucas/Scaled-Dot-Product-Attention https://github.com/AlcivanLucas/Scaled-Dot-Product-Attention/commit/52c7a7922a4f4b0c6ab0fb5c40ab03c22940e4f2
# label: correct
# class: clean
# pattern: NumPy scaled dot-product attention written step by step for a course exercise: a hand-written softmax that subtracts each row's maximum and normalises along axis=-1, scores Q K^T through K.swapaxes(-2, -1), division by sqrt(d_k) with d_k read from the keys' last axis, weights times V; a self-check compares it with the same computation written with K.T on 2-D inputs and checks that each row of weights sums to one
# why: correct: swapaxes(-2, -1) is the key transpose for any number of leading axes, the scale is sqrt of the key width, and the softmax normalises the last axis, the keys, with the usual max shift for stability; K.T in the check is the same transpose for the 2-D matrices it is used on
# looks-like: ATT001, ATT005
# source: https://github.com/AlcivanLucas/Scaled-Dot-Product-Attention https://github.com/AlcivanLucas/Scaled-Dot-Product-Attention/commit/52c7a7922a4f4b0c6ab0fb5c40ab03c22940e4f2 attention.py
import numpy as np


def stable_softmax(x):
    # shift by the row maximum so exp never overflows
    shifted = x - np.max(x, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def attention(Q, K, V):
    """Returns (output, weights) for queries (..., n, d_k), keys (..., m, d_k) and values (..., m, d_v)."""
    d_k = K.shape[-1]
    raw = np.matmul(Q, K.swapaxes(-2, -1))
    weights = stable_softmax(raw / np.sqrt(d_k))
    return np.matmul(weights, V), weights


def self_check(seed=0):
    rng = np.random.default_rng(seed)
    Q = rng.integers(0, 2, size=(3, 4)).astype(np.float64)
    K = rng.integers(0, 2, size=(3, 4)).astype(np.float64)
    V = np.arange(1, 7, dtype=np.float64).reshape(3, 2)

    out, w = attention(Q, K, V)
    assert out.shape == (Q.shape[0], V.shape[1])
    np.testing.assert_allclose(w.sum(axis=-1), np.ones(Q.shape[0]), atol=1e-6)

    reference_w = stable_softmax(Q @ K.T / np.sqrt(K.shape[-1]))
    np.testing.assert_allclose(w, reference_w, atol=1e-6)
    np.testing.assert_allclose(out, reference_w @ V, atol=1e-6)
    return out


if __name__ == "__main__":
    print(self_check())
