import numpy as np


def split_heads(x, n_heads):
    b, t, d = x.shape
    return x.reshape(b, t, n_heads, d // n_heads).transpose(0, 2, 1, 3)


def mha(x, w_qkv, w_o, n_heads):
    d_model = x.shape[-1]
    d_head = d_model // n_heads
    q, k, v = np.split(x @ w_qkv, 3, axis=-1)
    q, k, v = (split_heads(t, n_heads) for t in (q, k, v))
    logits = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(d_head)
    logits = logits - logits.max(axis=-1, keepdims=True)
    w = np.exp(logits)
    w = w / w.sum(axis=-1, keepdims=True)
    out = np.einsum("bhqk,bhkd->bhqd", w, v).transpose(0, 2, 1, 3).reshape(x.shape)
    return out @ w_o
