# case: b9-05-scale
# modelled-on: whitead/dmol-book https://github.com/whitead/dmol-book/commit/749a78dc02f87dc4e5a1f322b72ef6611decc5bf
# label: buggy
# class: real-bug
# pattern: a textbook chapter's NumPy attention examples: a hand-written softmax, a single-query tensor-dot attention over (seq, d) keys scaled by sqrt(q.shape[0]) (q is the 1-D query, so that is d), then a batched version for self-attention where q and k are (seq, d), the scores are an einsum "ij,kj->ik" divided by sqrt(q.shape[0]), softmaxed over axis 1, then trainable and two-head variants built on it
# why: buggy: the chapter says the dot products are divided by the dimension of the keys (their last axis); in the batched function q is (seq, d), so q.shape[0] is the sequence length and the scores are divided by sqrt(seq) instead of sqrt(d) (11 tokens of width 4 in the chapter's own example); the single-query function is right because its q is 1-D; no fix was found (the real helper softmax also lacks keepdims, written here with keepdims=True so that the scale is the one defect)
# source: https://github.com/whitead/dmol-book https://github.com/whitead/dmol-book/commit/749a78dc02f87dc4e5a1f322b72ef6611decc5bf dl/attention.ipynb
import numpy as np


def softmax(x, axis=None):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def tensor_dot(q, k):
    # q: (d,), k: (seq, d) -> attention vector over the seq keys
    return softmax((k @ q) / np.sqrt(q.shape[0]))


def attention_layer(q, k, v):
    return tensor_dot(q, k) @ v


def batched_tensor_dot(q, k):
    # q, k: (seq, d); scores (seq, seq)
    a = np.einsum("ij,kj->ik", q, k) / np.sqrt(q.shape[0])  # expect: ATT004
    # softmax over the keys
    return softmax(a, axis=1)


def self_attention(x):
    return batched_tensor_dot(x, x) @ x


def trainable_self_attention(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    return batched_tensor_dot(q, k) @ v


def two_head_attention(x, heads, w_h):
    outs = [trainable_self_attention(x, *w) for w in heads]
    return np.stack(outs, -1) @ w_h


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.normal(size=(11, 4))
    heads = [(rng.normal(size=(4, 4)), rng.normal(size=(4, 4)), rng.normal(size=(4, 2))) for _ in range(2)]
    print(attention_layer(x[0], x, rng.normal(size=(11, 2))))
    print(two_head_attention(x, heads, rng.normal(size=2)).shape)
