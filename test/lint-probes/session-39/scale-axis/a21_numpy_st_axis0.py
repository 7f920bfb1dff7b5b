import numpy as np


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attention_cols(Q, K, V):
    # Q: (T, d), K: (S, d), V: (S, dv); column j of A is the distribution of query j over the keys
    A = softmax(K @ Q.T / np.sqrt(Q.shape[1]), axis=0)  # (S, T)
    return A.T @ V
