# case: clean-numpy-2d-transposed-softmax-causal
# modelled-on: andyluken/transformers https://github.com/andyluken/transformers/commit/f8a45f887ee3dac33ed972c3364840a28aaae481
# label: correct
# class: clean
# pattern: NumPy teaching script on unbatched (L, d) arrays: keys transposed with .T, a row softmax written as (exp(x).T / sum(exp(x), axis=-1)).T, and an additive causal mask made from np.tril with -inf above the diagonal and 0 on and below it
# why: for 2-D arrays .T is the matrix transpose, and dividing the transposed exponentials by the row sums then transposing back normalises each row over the keys; the diagonal is never masked, so no row is all -inf and float64 -inf is safe
# looks-like: ATT001, ATT005, ATT007
# source: https://github.com/andyluken/transformers https://github.com/andyluken/transformers/commit/f8a45f887ee3dac33ed972c3364840a28aaae481 SelfAttention.py
import math

import numpy as np

L, d_k, d_v = 4, 8, 8  # sequence length, key and value sizes
q = np.random.randn(L, d_k)
k = np.random.randn(L, d_k)
v = np.random.randn(L, d_v)

# additive causal mask: 0 where a position may look, -inf at the future positions
mask = np.tril(np.ones((L, L)))
mask[mask == 0] = -np.inf
mask[mask == 1] = 0


def softmax(x):
    return (np.exp(x).T / np.sum(np.exp(x), axis=-1)).T


def scaled_dot_product_attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    scaled = np.matmul(q, k.T) / math.sqrt(d_k)  # (L, L)
    if mask is not None:
        scaled = scaled + mask
    attention = softmax(scaled)  # rows sum to 1
    out = np.matmul(attention, v)  # (L, d_v)
    return out, attention


values, attention = scaled_dot_product_attention(q, k, v, mask)
print("attention\n", attention)
print("new values\n", values)
