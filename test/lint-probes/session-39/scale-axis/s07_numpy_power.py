import numpy as np


def softmax(x, axis=-1):
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def multi_head(X, Wq, Wk, Wv, n_heads):
    """X: (T, d_model); W*: (d_model, d_model). Teaching code."""
    T, d_model = X.shape
    d = d_model // n_heads
    Q = (X @ Wq).reshape(T, n_heads, d).transpose(1, 0, 2)  # (h, T, d)
    K = (X @ Wk).reshape(T, n_heads, d).transpose(1, 0, 2)
    V = (X @ Wv).reshape(T, n_heads, d).transpose(1, 0, 2)
    S = Q @ K.transpose(0, 2, 1) * np.power(d, -0.5)  # (h, T, T)
    A = softmax(S, axis=-1)
    return (A @ V).transpose(1, 0, 2).reshape(T, d_model)
