# case: b46-06-clean
# modelled-on: uesina15-max/Transformer-algorithm-application-numpy- https://github.com/uesina15-max/Transformer-algorithm-application-numpy-/commit/027f5bddbb0593d70f4dfc2656407fb16385dcff
# label: correct
# class: clean
# pattern: pure NumPy transformer encoder with hand-written backpropagation: the multi-head self-attention splits (B, T, D) into (B, H, T, d_k) with reshape + transpose(0, 2, 1, 3), takes q @ k.transpose(0, 1, 3, 2) / sqrt(d_k), a max-shifted softmax over axis=-1, and in backward differentiates the softmax row-wise (attn * (g - sum(g * attn, axis=-1))) and the scaled product (grad_q = g_s @ k / sqrt(d_k), grad_k = g_s^T @ q / sqrt(d_k))
# why: correct: transpose(0, 1, 3, 2) swaps only the token and feature axes of (B, H, T, d_k), so the scores are (B, H, T, T); the softmax and its Jacobian-vector product both run over the key axis (-1); the 1/sqrt(d_k) of the forward pass appears once in each of the q and k gradients, as the chain rule requires; the encoder has no mask
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/uesina15-max/Transformer-algorithm-application-numpy- https://github.com/uesina15-max/Transformer-algorithm-application-numpy-/commit/027f5bddbb0593d70f4dfc2656407fb16385dcff Transformer-algorithm-application-numpy.py
import numpy as np


def row_softmax(z, axis=-1):
    z = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return z / np.sum(z, axis=axis, keepdims=True)


class Dense:
    def __init__(self, n_in, n_out, rng):
        self.W = rng.standard_normal((n_in, n_out)) * 0.1 / np.sqrt(n_in)
        self.b = np.zeros(n_out)

    def forward(self, x):
        self.inp = x
        return x @ self.W + self.b

    def backward(self, g):
        flat_in = self.inp.reshape(-1, self.W.shape[0])
        flat_g = g.reshape(-1, self.W.shape[1])
        grads = {"W": flat_in.T @ flat_g / self.inp.shape[0], "b": flat_g.sum(axis=0)}
        return g @ self.W.T, grads


class SelfAttentionNP:
    def __init__(self, d_model, n_heads, seed=0):
        assert d_model % n_heads == 0
        rng = np.random.default_rng(seed)
        self.h, self.d_k, self.d = n_heads, d_model // n_heads, d_model
        self.lin = {name: Dense(d_model, d_model, rng) for name in ("q", "k", "v", "o")}

    def _heads(self, t, B, T):
        return t.reshape(B, T, self.h, self.d_k).transpose(0, 2, 1, 3)

    def _merge(self, t, B, T):
        return t.transpose(0, 2, 1, 3).reshape(B, T, self.d)

    def forward(self, x):
        B, T, _ = x.shape
        q = self._heads(self.lin["q"].forward(x), B, T)
        k = self._heads(self.lin["k"].forward(x), B, T)
        v = self._heads(self.lin["v"].forward(x), B, T)
        scores = np.matmul(q, k.transpose(0, 1, 3, 2)) / np.sqrt(self.d_k)
        attn = row_softmax(scores, axis=-1)
        self.saved = (q, k, v, attn)
        return self.lin["o"].forward(self._merge(np.matmul(attn, v), B, T))

    def backward(self, g_out):
        q, k, v, attn = self.saved
        B, _, T, _ = q.shape
        g_ctx, grads = self.lin["o"].backward(g_out)
        g_ctx = self._heads(g_ctx, B, T)

        g_v = np.matmul(attn.transpose(0, 1, 3, 2), g_ctx)
        g_attn = np.matmul(g_ctx, v.transpose(0, 1, 3, 2))
        g_scores = attn * (g_attn - np.sum(g_attn * attn, axis=-1, keepdims=True))
        g_q = np.matmul(g_scores, k) / np.sqrt(self.d_k)
        g_k = np.matmul(g_scores.transpose(0, 1, 3, 2), q) / np.sqrt(self.d_k)

        g_x = np.zeros((B, T, self.d))
        for name, g in (("q", g_q), ("k", g_k), ("v", g_v)):
            g_in, sub = self.lin[name].backward(self._merge(g, B, T))
            g_x += g_in
            grads.update({f"{name}.{key}": val for key, val in sub.items()})
        return g_x, grads
