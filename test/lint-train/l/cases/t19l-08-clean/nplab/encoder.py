# case: t19l-08-clean
# modelled-on: nexus-4/self-attention-mechanism https://github.com/nexus-4/self-attention-mechanism/commit/3156340431a39a92b61814c6e7bf863577981518
# label: correct
# class: clean
# pattern: NumPy course labs on attention: an encoder layer with a single attention head of width d_model (W_q, W_k, W_v all d_model x d_model) computes Q @ np.swapaxes(K, -1, -2) for (batch, seq, d_model) inputs, divides by np.sqrt(self.d_model), applies a local max-shifted softmax over axis=-1, adds the residual and normalises; a masking module builds an additive look-ahead mask (zeros, -inf at np.triu_indices(n, k=1)) and applies it to 2-D np.dot(Q, K.T) / sqrt(d_k) scores before a row softmax
# why: correct: with one head the model width is the head width, so sqrt(d_model) is the right scale; swapaxes(K, -1, -2) transposes the keys of a batched array and K.T the keys of a 2-D one; the mask leaves the diagonal at 0, so no row is all -inf, and it is added before the softmax over the key axis
# looks-like: ATT001, ATT004, ATT005, ATT007
# source: https://github.com/nexus-4/self-attention-mechanism https://github.com/nexus-4/self-attention-mechanism/commit/3156340431a39a92b61814c6e7bf863577981518 lab_02_eletiva/layers.py, lab_03_eletiva/masking.py
import numpy as np

from .masking import masked_attention_weights


class EncoderLayer:
    def __init__(self, d_model=64, seed=0):
        rng = np.random.default_rng(seed)
        self.d_model = d_model
        self.W_q = rng.standard_normal((d_model, d_model))
        self.W_k = rng.standard_normal((d_model, d_model))
        self.W_v = rng.standard_normal((d_model, d_model))
        self.W1 = rng.standard_normal((d_model, 4 * d_model))
        self.b1 = rng.standard_normal(4 * d_model)
        self.W2 = rng.standard_normal((4 * d_model, d_model))
        self.b2 = rng.standard_normal(d_model)

    @staticmethod
    def _softmax(x):
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        return e / np.sum(e, axis=-1, keepdims=True)

    @staticmethod
    def _norm(x, eps=1e-6):
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.var(x, axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps)

    def forward(self, X):
        Q = X @ self.W_q
        K = X @ self.W_k
        V = X @ self.W_v
        scores = Q @ np.swapaxes(K, -1, -2)
        weights = self._softmax(scores / np.sqrt(self.d_model))
        h = self._norm(X + weights @ V)
        ff = np.maximum(0, h @ self.W1 + self.b1) @ self.W2 + self.b2
        return self._norm(h + ff)


if __name__ == "__main__":
    layer = EncoderLayer(64)
    x = np.random.randn(2, 5, 64)
    print(layer.forward(x).shape)
    print(masked_attention_weights(x[0], x[0], 64).sum(axis=-1))
