# case: b8-09-clean
# modelled-on: le0ff/transformer-from-scratch https://github.com/le0ff/transformer-from-scratch/commit/fad1eb923411dd9c4da5d9b11200fa62eb2c0839
# label: correct
# class: clean
# pattern: a NumPy-only encoder-decoder transformer: the multi-head block divides q @ k^T by sqrt(d_k) and hands the logits and the mask to a Softmax layer in another module, which applies np.where(mask, x, -1e9) before the stable softmax; the masks are keep masks (1 = token, tril for the decoder) built per example in a utils module and broadcast to (heads, T, T)
# why: correct: the masks are 1 where attention is allowed and the softmax keeps x there and writes -1e9 elsewhere, in float64 NumPy where -1e9 is representable; the decoder mask is tril * key-padding, so each row keeps at least its first (non-padding) token; the softmax is over the last (key) axis
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/le0ff/transformer-from-scratch https://github.com/le0ff/transformer-from-scratch/commit/fad1eb923411dd9c4da5d9b11200fa62eb2c0839 src/layers/multiheadattentionblock.py
import numpy as np
from numpy import ndarray

from src.layers.softmax import Softmax


class MultiHeadAttentionBlock:
    def __init__(self, d_model: int, n_heads: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (rng.normal(0, d_model ** -0.5, (d_model, d_model)) for _ in range(4))
        self.softmax = Softmax()

    @staticmethod
    def attention(query: ndarray, key: ndarray, value: ndarray, mask: ndarray, softmax: Softmax) -> ndarray:
        """query/key/value: (B, H, T, d_k); mask: (B, H, T, T), 1 = attend."""
        d_k = query.shape[-1]
        weights = softmax((query @ key.transpose(0, 1, 3, 2)) / np.sqrt(d_k), causal_mask=mask)
        return weights @ value

    def forward(self, query: ndarray, key: ndarray, value: ndarray, mask: ndarray) -> ndarray:
        B, T, _ = query.shape
        q = (query @ self.W_q).reshape(B, T, self.n_heads, self.head_dim).transpose(0, 2, 1, 3)
        k = (key @ self.W_k).reshape(B, key.shape[1], self.n_heads, self.head_dim).transpose(0, 2, 1, 3)
        v = (value @ self.W_v).reshape(B, value.shape[1], self.n_heads, self.head_dim).transpose(0, 2, 1, 3)
        x = self.attention(q, k, v, mask, self.softmax)
        return x.transpose(0, 2, 1, 3).reshape(B, T, self.n_heads * self.head_dim) @ self.W_o
