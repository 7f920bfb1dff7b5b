import numpy as np


def attention(Q, K, V):
    """Q: (n, d_k), K: (m, d_k), V: (m, d_v): one head, so d_k is the whole width."""
    d_k = K.shape[1]
    scores = Q @ K.T / np.sqrt(d_k)
    scores -= scores.max(axis=1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=1, keepdims=True)
    return w @ V


rng = np.random.default_rng(0)
d_model = 16
X = rng.standard_normal((5, d_model))
Wq, Wk, Wv = (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model) for _ in range(3))
out = attention(X @ Wq, X @ Wk, X @ Wv)
