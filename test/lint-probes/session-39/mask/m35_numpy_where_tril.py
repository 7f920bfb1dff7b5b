import numpy as np


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def causal_self_attention(x, wq, wk, wv):
    # x: (T, d)
    q, k, v = x @ wq, x @ wk, x @ wv
    T = x.shape[0]
    visible = np.tril(np.ones((T, T))).astype(bool)
    s = q @ k.T / np.sqrt(q.shape[-1])
    s = np.where(visible, s, -np.inf)
    return softmax(s) @ v
