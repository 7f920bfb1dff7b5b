import numpy as np


def causal_attention(x, wq, wk, wv):
    T = x.shape[0]
    q, k, v = x @ wq, x @ wk, x @ wv
    bias = -1e9 * (1.0 - np.tril(np.ones((T, T))))  # -1e9 on the future
    s = q @ k.T / np.sqrt(q.shape[-1]) + bias
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v
