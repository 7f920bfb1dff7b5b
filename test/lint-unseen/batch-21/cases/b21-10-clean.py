# case: b21-10-clean
# modelled-on: xzyblithe/Build-LLM-from-Scratch https://github.com/xzyblithe/Build-LLM-from-Scratch/commit/819cbc0166720ebd0aedad9240268d87bd7dbd2c
# label: correct
# class: clean
# pattern: a book's NumPy-only transformer: random (d_model, d_model) projection matrices, heads split with reshape(B, T, H, d_k).transpose(0, 2, 1, 3), scores np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(d_k), a mask applied with np.where(mask == 0, -1e9, scores), a hand-written numerically stable softmax over axis=-1 (exp(x - max) / sum, keepdims), and a static causal mask (np.triu(ones, k=1) == 0).astype(float32) passed to the decoder's self-attention; embeddings are multiplied by sqrt(d_model)
# why: correct: after transpose(0, 2, 1, 3) the tensors are (B, H, T, d_k), so transpose(0, 1, 3, 2) swaps only the last two axes of the keys and the scores are (B, H, T, T); the causal mask is 1 where a query may attend (on and below the diagonal) and np.where fills where it is 0; the helper softmax normalises the last (key) axis; d_k is the per-head width; sqrt(d_model) scales embeddings, not scores
# looks-like: ATT001, ATT002, ATT004, ATT005
# source: https://github.com/xzyblithe/Build-LLM-from-Scratch https://github.com/xzyblithe/Build-LLM-from-Scratch/commit/819cbc0166720ebd0aedad9240268d87bd7dbd2c code/chapter08/transformer_from_scratch.py
from typing import Optional

import numpy as np


class MultiHeadAttention:
    def __init__(self, d_model: int, n_heads: int):
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = np.random.randn(d_model, d_model) * 0.02
        self.W_k = np.random.randn(d_model, d_model) * 0.02
        self.W_v = np.random.randn(d_model, d_model) * 0.02
        self.W_o = np.random.randn(d_model, d_model) * 0.02

    def forward(self, x: np.ndarray, mask: Optional[np.ndarray] = None) -> np.ndarray:
        """x: (batch, seq_len, d_model); mask: (seq_len, seq_len), 1 = may attend."""
        b, t, _ = x.shape
        Q = np.matmul(x, self.W_q).reshape(b, t, self.n_heads, self.d_k).transpose(0, 2, 1, 3)
        K = np.matmul(x, self.W_k).reshape(b, t, self.n_heads, self.d_k).transpose(0, 2, 1, 3)
        V = np.matmul(x, self.W_v).reshape(b, t, self.n_heads, self.d_k).transpose(0, 2, 1, 3)

        scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(self.d_k)
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        weights = self._softmax(scores)

        out = np.matmul(weights, V).transpose(0, 2, 1, 3).reshape(b, t, self.d_model)
        return np.matmul(out, self.W_o)

    def _softmax(self, x: np.ndarray) -> np.ndarray:
        e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e_x / np.sum(e_x, axis=-1, keepdims=True)


class LayerNorm:
    def __init__(self, d_model: int, epsilon: float = 1e-6):
        self.gamma = np.ones(d_model)
        self.beta = np.zeros(d_model)
        self.epsilon = epsilon

    def forward(self, x: np.ndarray) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        var = x.var(axis=-1, keepdims=True)
        return self.gamma * (x - mean) / np.sqrt(var + self.epsilon) + self.beta


class DecoderOnlyLM:
    def __init__(self, vocab_size: int, d_model: int = 64, n_heads: int = 4, n_layers: int = 2):
        self.d_model = d_model
        self.embedding = np.random.randn(vocab_size, d_model) * 0.02
        self.layers = [(MultiHeadAttention(d_model, n_heads), LayerNorm(d_model)) for _ in range(n_layers)]
        self.output_proj = np.random.randn(d_model, vocab_size) * 0.02

    @staticmethod
    def create_causal_mask(seq_len: int) -> np.ndarray:
        mask = np.triu(np.ones((seq_len, seq_len)), k=1)
        return (mask == 0).astype(np.float32)

    def forward(self, tokens: np.ndarray) -> np.ndarray:
        x = self.embedding[tokens] * np.sqrt(self.d_model)
        mask = self.create_causal_mask(tokens.shape[1])
        for attn, norm in self.layers:
            x = norm.forward(x + attn.forward(x, mask))
        return np.matmul(x, self.output_proj)
