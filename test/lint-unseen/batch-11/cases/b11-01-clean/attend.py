# case: b11-01-clean
# modelled-on: eliben/deep-learning-samples https://github.com/eliben/deep-learning-samples/commit/26e866b5c42ffb7e1c256c6086e842e89536716a
# label: correct
# class: clean
# pattern: a NumPy walk-through of self-attention in three layouts: tokens in rows (N, D) with q @ k.T and a last-axis softmax, a batched (B, N, D) form with k.swapaxes(-2, -1), and a column layout (D, N) where the scores are k.T @ q, softmaxed per column by a helper in another module, and the output is v @ att; the scale is sqrt of the projection width read off k
# why: correct: in the column layout the keys sit in the rows of k.T @ q and each column (one query) is normalised by the column softmax, so the weights sum to one over the keys; k.shape[0] there is the projection width (tokens are columns), k.shape[1] / k.shape[-1] is the width in the row layouts; what a naive linter could misread: ATT001 (a softmax over axis 0 of the scores), ATT005 (k.T on the left of the product), ATT004 (k.shape[0] taken for the scale)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/eliben/deep-learning-samples https://github.com/eliben/deep-learning-samples/commit/26e866b5c42ffb7e1c256c6086e842e89536716a transformer-attention/selfattention.py
import numpy as np

from norm import softmax_columns, softmax_last


def attend_rows(tokens, w_q, w_k, w_v):
    # tokens: (N, D); every w_*: (D, P) -> q, k, v: (N, P)
    q = tokens @ w_q
    k = tokens @ w_k
    v = tokens @ w_v
    scores = q @ k.T / np.sqrt(k.shape[1])  # (N, N): row i holds query i against every key
    weights = softmax_last(scores)
    return weights @ v  # (N, P)


def attend_rows_batched(tokens, w_q, w_k, w_v):
    # tokens: (B, N, D)
    q = tokens @ w_q
    k = tokens @ w_k
    v = tokens @ w_v
    scores = q @ k.swapaxes(-2, -1) / np.sqrt(k.shape[-1])  # (B, N, N)
    return softmax_last(scores) @ v


def attend_columns(tokens, w_q, w_k, w_v, b_q, b_k, b_v):
    # tokens: (D, N), one token per column; every w_*: (D, D); every b_*: (D, 1)
    q = w_q @ tokens + b_q
    k = w_k @ tokens + b_k
    v = w_v @ tokens + b_v
    # (N, N): entry (j, i) is key j against query i, so each column is one query
    scores = (k.T @ q) / np.sqrt(k.shape[0])
    weights = softmax_columns(scores)  # every column sums to one over the keys
    return v @ weights  # (D, N)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.normal(size=(6, 8))
    ws = [rng.normal(size=(8, 4)) for _ in range(3)]
    print(attend_rows(x, *ws).shape)
    print(attend_rows_batched(x[None], *ws).shape)
    sq = [rng.normal(size=(8, 8)) for _ in range(3)]
    bs = [rng.normal(size=(8, 1)) for _ in range(3)]
    print(attend_columns(x.T, *sq, *bs).shape)
