import numpy as np


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def silu(x):
    return x / (1 + np.exp(-x))


def repeat_kv(x, n_rep):
    return x if n_rep == 1 else np.repeat(x, n_rep, axis=2)


def rope_table(head_dim, max_len, theta=10000.0):
    freqs = 1.0 / (theta ** (np.arange(0, head_dim, 2)[: head_dim // 2] / head_dim))
    return np.exp(1j * np.outer(np.arange(max_len), freqs))


def apply_rope(xq, xk, table):
    cq = xq.reshape(*xq.shape[:-1], -1, 2)
    ck = xk.reshape(*xk.shape[:-1], -1, 2)
    cq = (cq[..., 0] + 1j * cq[..., 1]) * table[None, :, None, :]
    ck = (ck[..., 0] + 1j * ck[..., 1]) * table[None, :, None, :]
    back = lambda c, like: np.stack([c.real, c.imag], axis=-1).reshape(like.shape)
    return back(cq, xq), back(ck, xk)
