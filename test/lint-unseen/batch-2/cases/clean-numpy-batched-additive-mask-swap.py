# case: clean-numpy-batched-additive-mask-swap
# modelled-on: MarziehVahdat/transformer-hands-on https://github.com/MarziehVahdat/transformer-hands-on/commit/f18f92a8051a8a16c5a70bdef08414bc0e0b1c7a
# label: correct
# class: clean
# pattern: NumPy-only scaled dot-product attention on batched (batch, seq, d) arrays: keys transposed with transpose(0, 2, 1), a max-subtracted softmax helper with an axis argument, and an additive mask documented as 0 = keep, -1e9 = block, built by a helper from a 0/1 padding vector
# why: transpose(0, 2, 1) swaps exactly the last two axes of the 3-D keys; the helper turns the 0/1 keep vector into 0 / -1e9 before it is added, which is the convention the attention function documents; -1e9 is fine in float64 and the softmax subtracts the row maximum
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/MarziehVahdat/transformer-hands-on https://github.com/MarziehVahdat/transformer-hands-on/commit/f18f92a8051a8a16c5a70bdef08414bc0e0b1c7a attention_numpy.py
import numpy as np


def softmax(x, axis=-1):
    """Numerically stable softmax."""
    x_max = np.max(x, axis=axis, keepdims=True)
    e_x = np.exp(x - x_max)
    return e_x / np.sum(e_x, axis=axis, keepdims=True)


def padding_bias(keep, n_queries):
    """keep: (batch, seq_k) with 1 for real tokens, 0 for padding -> (batch, n_queries, seq_k) additive mask."""
    bias = (1.0 - keep) * -1e9
    return np.repeat(bias[:, None, :], n_queries, axis=1)


def scaled_dot_product_attention(Q, K, V, mask=None):
    """
    Q: (batch, seq_len_q, d_k); K: (batch, seq_len_k, d_k); V: (batch, seq_len_k, d_v)
    mask: optional (batch, seq_len_q, seq_len_k) with 0 for keep, -1e9 for block
    """
    d_k = Q.shape[-1]
    scores = np.matmul(Q, K.transpose(0, 2, 1)) / np.sqrt(d_k)  # (batch, seq_q, seq_k)
    if mask is not None:
        scores = scores + mask
    weights = softmax(scores, axis=-1)
    return np.matmul(weights, V), weights


np.random.seed(42)
Q = np.random.rand(2, 4, 8)
K = np.random.rand(2, 5, 8)
V = np.random.rand(2, 5, 8)
keep = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=np.float64)
out, attn = scaled_dot_product_attention(Q, K, V, padding_bias(keep, Q.shape[1]))
print(out.shape, attn.sum(axis=-1))
