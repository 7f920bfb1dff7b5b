import numpy as np


def softmax(x):
    """Numerically stable softmax over the last axis."""
    shifted = x - x.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def causal_mask(seq_len: int):
    """[T, T] additive mask: 0 on and below the diagonal, -inf above it."""
    mask = np.zeros((seq_len, seq_len), dtype=np.float32)
    mask[np.triu_indices(seq_len, k=1)] = float("-inf")
    return mask


def attention(Q, K, V, mask=None):
    """Q, K: [T, d_k], V: [T, d_v]; mask: additive [T, T]."""
    d_k = Q.shape[-1]
    scores = np.matmul(Q, K.T) / np.sqrt(d_k)
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores)
    return np.matmul(weights, V), weights
