# case: t14g-02-softmax
# modelled-on: jtappen1/Machine-Learning-From-Scratch https://github.com/jtappen1/Machine-Learning-From-Scratch/commit/f787ccc432458f43ef1d7950ed8e0b8e5d3b305e
# label: buggy
# class: real-bug
# pattern: a NumPy walk-through of multi-head attention: three 8-wide tokens are projected to Q, K and V (3, 8), each is reshaped straight to (batch, num_heads, seq_len, d_k) = (1, 4, 3, 2) and then transposed with (0, 2, 1, 3) "so each head gets all 3 tokens"; a helper computes Q @ K.transpose(0, 1, 3, 2) / sqrt(d_k) and a hand-written softmax over the last axis, and the heads are merged with the inverse transpose
# why: buggy: reshaping (seq_len, d_model) directly to (1, heads, seq_len, d_k) cuts the flat rows into 6-value chunks that mix features of different tokens, and the transpose then leaves the tensor as (1, 3, 4, 2), not the (1, 4, 3, 2) the comments claim: axis 2, which the helper treats as the token axis, indexes the 4 head chunks, so the scores are (1, 3, 4, 4) and the softmax over the last axis normalises over heads instead of over the 3 tokens; the comments state the intended layout (reshape to (batch, seq_len, heads, d_k), then swap axes 1 and 2); no fix was found
# source: https://github.com/jtappen1/Machine-Learning-From-Scratch https://github.com/jtappen1/Machine-Learning-From-Scratch/commit/f787ccc432458f43ef1d7950ed8e0b8e5d3b305e models/multi-head-attention/multi_head_attention.py
import numpy as np

X = np.array(
    [
        [1, 0, 1, 0, 1, 0, 1, 0],
        [0, 2, 0, 2, 0, 2, 0, 2],
        [1, 1, 1, 1, 1, 1, 1, 1],
    ],
    dtype=float,
)  # three tokens, 8 features each

batch_size = 1
num_heads = 4
seq_len = 3
d_model = 8
d_k = d_model // num_heads

rng = np.random.default_rng(0)
W_q = rng.random((d_model, d_model))
W_k = rng.random((d_model, d_model))
W_v = rng.random((d_model, d_model))

Q = X @ W_q  # (3, 8)
K = X @ W_k
V = X @ W_v


def split_heads(t):
    # reshape to (batch_size, num_heads, seq_len, d_k), then transpose so each head gets all 3 tokens
    t = t.reshape(batch_size, num_heads, seq_len, d_k)
    return t.transpose(0, 2, 1, 3)


def scaled_attention(q, k, v):
    scale = np.sqrt(q.shape[-1])
    scores = q @ k.transpose(0, 1, 3, 2) / scale  # (batch, heads, seq, seq)
    # softmax along the last axis (the keys)
    weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    weights = weights / np.sum(weights, axis=-1, keepdims=True)  # expect: ATT001
    return weights @ v, weights


def combine_heads(x):
    x = x.transpose(0, 2, 1, 3)  # back to (batch, seq_len, heads, d_k)
    return x.reshape(batch_size, seq_len, num_heads * d_k)


out, attn = scaled_attention(split_heads(Q), split_heads(K), split_heads(V))
W_o = rng.random((d_model, d_model))
final = combine_heads(out) @ W_o
print(attn.shape, final.shape)
