import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(X, W_q, W_k, W_v):
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    d_k = K.shape[1]
    scores = Q @ K.T / np.sqrt(d_k)
    weights = softmax(scores, axis=1)
    return weights @ V


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 16))
    Ws = [rng.normal(size=(16, 8)) for _ in range(3)]
    print(self_attention(X, *Ws).shape)
