# BUGGY TWIN of a21_numpy_batched_transpose_axes.py: expect a finding
import numpy as np


def batched_attention(Q, K, V):
    """Q: (B, Tq, d), K and V: (B, Tk, d)."""
    d = Q.shape[-1]
    scores = np.matmul(Q, K.transpose(1, 0, 2)) / np.sqrt(d)
    scores -= scores.max(axis=-1, keepdims=True)
    P = np.exp(scores)
    P /= P.sum(axis=-1, keepdims=True)
    return np.matmul(P, V)


def run():
    rng = np.random.default_rng(1)
    Q = rng.standard_normal((2, 4, 32))
    K = rng.standard_normal((2, 6, 32))
    V = rng.standard_normal((2, 6, 32))
    return batched_attention(Q, K, V)
