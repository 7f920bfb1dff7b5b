# case: b6-14-clean
# modelled-on: Ultron09/Numpy-Transformer https://github.com/Ultron09/Numpy-Transformer/commit/d9e0e9b5716fe918de31ac24e0b9a48cda838a70
# label: correct
# class: clean
# pattern: a NumPy-only GPT with hand-written forward and backward passes: layers are classes with forward methods, the softmax is a Softmax class whose forward defaults to axis=-1 and subtracts the max, the multi-head attention reshapes to (B, H, T, d_k), transposes the keys with transpose(0, 1, 3, 2), divides by sqrt(d_k), adds an additive causal mask np.triu(ones * -1e9, k=1) built by the model and passed down through the blocks
# why: correct: np.triu(..., k=1) puts -1e9 strictly above the diagonal (the future keys) and 0 elsewhere, so adding it keeps each query's past; -1e9 is safe in float64/float32 NumPy; the Softmax class normalises over the last axis, the keys; the transpose swaps only the last two axes of K
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/Ultron09/Numpy-Transformer https://github.com/Ultron09/Numpy-Transformer/commit/d9e0e9b5716fe918de31ac24e0b9a48cda838a70 gpt_numpy.py
from typing import Optional

import numpy as np


class Linear:
    def __init__(self, d_in, d_out):
        self.W = np.random.randn(d_in, d_out) * np.sqrt(2.0 / d_in)
        self.b = np.zeros(d_out)

    def forward(self, x):
        self.x = x
        return x @ self.W + self.b


class Softmax:
    """softmax(x_i) = exp(x_i - max(x)) / sum_j exp(x_j - max(x))"""

    def forward(self, x: np.ndarray, axis: int = -1) -> np.ndarray:
        x_shifted = x - np.max(x, axis=axis, keepdims=True)
        exp_x = np.exp(x_shifted)
        self.output = exp_x / np.sum(exp_x, axis=axis, keepdims=True)
        return self.output


class MultiHeadAttention:
    def __init__(self, d_model: int, num_heads: int):
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (Linear(d_model, d_model) for _ in range(4))

    def forward(self, x: np.ndarray, mask: Optional[np.ndarray] = None) -> np.ndarray:
        batch_size, seq_len, d_model = x.shape
        Q = self.W_q.forward(x).reshape(batch_size, seq_len, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        K = self.W_k.forward(x).reshape(batch_size, seq_len, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        V = self.W_v.forward(x).reshape(batch_size, seq_len, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        scores = (Q @ K.transpose(0, 1, 3, 2)) / np.sqrt(self.d_k)  # (B, H, T, T)
        if mask is not None:
            scores = scores + mask  # -1e9 at the positions to ignore
        self.softmax = Softmax()
        self.attn_weights = self.softmax.forward(scores)
        out = self.attn_weights @ V  # (B, H, T, d_k)
        out = out.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
        return self.W_o.forward(out)


class TransformerBlock:
    def __init__(self, d_model, num_heads):
        self.attention = MultiHeadAttention(d_model, num_heads)
        self.ff1, self.ff2 = Linear(d_model, 4 * d_model), Linear(4 * d_model, d_model)

    def forward(self, x, mask=None):
        x = x + self.attention.forward(x, mask)
        return x + self.ff2.forward(np.maximum(0.0, self.ff1.forward(x)))


class GPT:
    def __init__(self, vocab_size, d_model=128, num_heads=4, num_layers=2, max_len=256):
        self.tok = np.random.randn(vocab_size, d_model) * 0.02
        self.pos = np.random.randn(max_len, d_model) * 0.02
        self.blocks = [TransformerBlock(d_model, num_heads) for _ in range(num_layers)]
        self.lm_head = Linear(d_model, vocab_size)

    def forward(self, idx: np.ndarray) -> np.ndarray:
        batch_size, seq_len = idx.shape
        x = self.tok[idx] + self.pos[:seq_len]
        # causal mask: position i attends to positions <= i
        mask = np.triu(np.ones((seq_len, seq_len)) * -1e9, k=1)
        for block in self.blocks:
            x = block.forward(x, mask)
        return self.lm_head.forward(x)
