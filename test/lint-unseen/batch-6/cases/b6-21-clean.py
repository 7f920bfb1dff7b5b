# case: b6-21-clean
# modelled-on: deepanshu-013/Transformer-From-Scratch https://github.com/deepanshu-013/Transformer-From-Scratch/commit/c31a6394ac10874f1bc6c36d9eff252c5ce6a5bd
# label: correct
# class: clean
# pattern: a NumPy masked-language-model encoder with hand-written backward passes: single-head self-attention over one unbatched sequence X of shape (T, d_model), scores Q @ K.T / sqrt(d_model), padding columns set with scores[:, attention_mask == 0] = -1e9, a static softmax over axis=1, and a backward pass that mirrors each step
# why: correct: with one head the key width is d_model, so dividing by sqrt(d_model) is the paper's scale; for a 2-D (T, T) score matrix K.T is the key transpose and axis=1 is the key axis, so each query's row sums to one; the mask (1 = real token) hides the padding keys' columns before the softmax, and -1e9 is safe in float64
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/deepanshu-013/Transformer-From-Scratch https://github.com/deepanshu-013/Transformer-From-Scratch/commit/c31a6394ac10874f1bc6c36d9eff252c5ce6a5bd transformer/SelfAttention.py
import numpy as np


class SelfAttention:
    def __init__(self, d_model=128):
        self.d_model = d_model
        self.WQ = np.random.randn(d_model, d_model) * 0.02
        self.WK = np.random.randn(d_model, d_model) * 0.02
        self.WV = np.random.randn(d_model, d_model) * 0.01

    @staticmethod
    def softmax(x):
        e_x = np.exp(x - np.max(x, axis=1, keepdims=True))
        return e_x / e_x.sum(axis=1, keepdims=True)

    def forward(self, X, attention_mask):
        # X: (T, d_model); attention_mask: (T,), 1 = real token, 0 = padding
        self.attention_mask = np.array(attention_mask)
        self.X = X
        self.Q, self.K, self.V = X @ self.WQ, X @ self.WK, X @ self.WV
        raw_scores = self.Q @ self.K.T  # (T, T)
        scaled_scores = raw_scores / np.sqrt(self.d_model)
        scaled_scores[:, self.attention_mask == 0] = -1e9
        self.A = self.softmax(scaled_scores)
        self.output = self.A @ self.V
        self.output[self.attention_mask == 0] = 0
        return self.output

    def backward(self, doutput):
        d_A = doutput @ self.V.T
        d_V = self.A.T @ doutput
        sum_dA_A = np.sum(d_A * self.A, axis=1, keepdims=True)
        d_softmax_A = self.A * (d_A - sum_dA_A)
        d_softmax_A[:, self.attention_mask == 0] = 0
        d_score = d_softmax_A / np.sqrt(self.d_model)
        d_Q = d_score @ self.K
        d_K = d_score.T @ self.Q
        self.dWQ, self.dWK, self.dWV = self.X.T @ d_Q, self.X.T @ d_K, self.X.T @ d_V
        mask = self.attention_mask[:, None]
        return (d_Q @ self.WQ.T + d_K @ self.WK.T + d_V @ self.WV.T) * mask
