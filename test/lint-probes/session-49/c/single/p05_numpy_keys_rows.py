import numpy as np


def softmax(x, axis):
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def attend(queries, keys, values):
    """queries: (T, d); keys, values: (S, d). Scores laid out keys-by-queries."""
    d = queries.shape[-1]
    scores = keys @ queries.T / np.sqrt(d)  # (S, T): rows are keys
    weights = softmax(scores, axis=0)  # each column (a query) sums to 1 over the keys
    return weights.T @ values  # (T, d)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    q = rng.standard_normal((4, 8))
    k = rng.standard_normal((6, 8))
    v = rng.standard_normal((6, 8))
    print(attend(q, k, v).shape)
