# case: b7-26-clean
# modelled-on: gourav-d/llm-from-scratch https://github.com/gourav-d/llm-from-scratch/commit/b90a0f34079b12fd5afa3d795a3a7013f942cd56
# label: correct
# class: clean
# pattern: a NumPy mini-GPT from a course: single-head causal self-attention on (seq_len, d_model) inputs with d_model-wide projections, scores Q @ K.T / sqrt(d_model), a boolean causal mask from np.tril(...).astype(bool) (True = can attend) applied with np.where(mask, scores, -1e9), a max-subtracted softmax over the last axis, stacked in transformer blocks
# why: correct: the inputs are 2-D, so K.T is the key transpose; the head is d_model wide, so sqrt(d_model) is its key width; np.where keeps the scores where the mask is True and fills the future with -1e9 in float64
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/gourav-d/llm-from-scratch https://github.com/gourav-d/llm-from-scratch/commit/b90a0f34079b12fd5afa3d795a3a7013f942cd56 modules/04_transformers/examples/example_06_mini_gpt.py
import numpy as np


def softmax(x, axis=-1):
    exp_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def create_causal_mask(seq_len):
    """Boolean (seq_len, seq_len): True = can attend, False = a future position."""
    return np.tril(np.ones((seq_len, seq_len))).astype(bool)


class LayerNorm:
    def __init__(self, d_model, eps=1e-5):
        self.gamma, self.beta, self.eps = np.ones(d_model), np.zeros(d_model), eps

    def forward(self, x):
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return self.gamma * (x - mean) / np.sqrt(var + self.eps) + self.beta


class CausalSelfAttention:
    def __init__(self, d_model):
        self.d_model = d_model
        self.W_q = np.random.randn(d_model, d_model) * 0.1
        self.W_k = np.random.randn(d_model, d_model) * 0.1
        self.W_v = np.random.randn(d_model, d_model) * 0.1
        self.W_o = np.random.randn(d_model, d_model) * 0.1

    def forward(self, x):
        seq_len = x.shape[0]  # x: (seq_len, d_model)
        Q, K, V = x @ self.W_q, x @ self.W_k, x @ self.W_v
        scores = Q @ K.T / np.sqrt(self.d_model)  # (seq_len, seq_len)
        mask = create_causal_mask(seq_len)
        scores = np.where(mask, scores, -1e9)
        weights = softmax(scores, axis=-1)
        return (weights @ V) @ self.W_o


class TransformerBlock:
    def __init__(self, d_model, d_ff):
        self.attention = CausalSelfAttention(d_model)
        self.W1 = np.random.randn(d_model, d_ff) * 0.1
        self.W2 = np.random.randn(d_ff, d_model) * 0.1
        self.norm1, self.norm2 = LayerNorm(d_model), LayerNorm(d_model)

    def forward(self, x):
        x = self.norm1.forward(x + self.attention.forward(x))
        return self.norm2.forward(x + np.maximum(0, x @ self.W1) @ self.W2)
