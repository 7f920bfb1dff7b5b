import numpy as np


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


class NumpyMultiHead:
    """Multi-head attention on NumPy arrays; `mask` is 1 where a key may be seen."""

    def __init__(self, d_model=512, heads=8, seed=0):
        rng = np.random.default_rng(seed)
        self.heads = heads
        self.d_k = d_model // heads
        self.W_q = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
        self.W_k = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
        self.W_v = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)
        self.W_o = rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)

    def split(self, x):
        b, n, _ = x.shape
        # (b, n, d_model) -> (b, heads, n, d_k)
        return x.reshape(b, n, self.heads, self.d_k).transpose(0, 2, 1, 3)

    def forward(self, query, key, value, mask):
        b, n_q = query.shape[0], query.shape[1]
        Q = self.split(query @ self.W_q)
        K = self.split(key @ self.W_k)
        V = self.split(value @ self.W_v)
        energy = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(self.d_k)  # (b, heads, n_q, n_k)
        if mask is not None:
            mask = mask[:, np.newaxis, ...]  # broadcast over the heads
            energy = np.where(mask == 0, float("-inf"), energy)
        attention = softmax(energy)
        out = np.matmul(attention, V).transpose(0, 2, 1, 3).reshape(b, n_q, -1)
        return out @ self.W_o, attention
