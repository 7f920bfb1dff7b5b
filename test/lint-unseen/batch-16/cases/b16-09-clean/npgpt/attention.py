# case: b16-09-clean
# modelled-on: X-Hell/MiniGPT https://github.com/X-Hell/MiniGPT/commit/bfa1711886eb73efc446fa49d2cb63b187fc7a26
# label: correct
# class: clean
# pattern: a NumPy-only GPT built for study (batch of one, RoPE, an explicit pre-allocated KV cache in another module): the attention writes the new keys and values at start_pos, reads back the cache up to its current length, scales by sqrt(d_head) and, only when more than one query arrives, adds np.triu(ones((T_q, T_k)) * -1e9, k=1 + (T_k - T_q)); a single decode query gets no mask; a separate training forward uses triu(ones((T, T)) * -1e9, k=1); softmax over the last axis
# why: correct: the diagonal offset 1 + (T_k - T_q) aligns the causal mask bottom-right, so a chunk of T_q new queries after T_k - T_q cached keys sees the whole cache and the new keys up to itself; one new query may see every cached key; -1e9 is finite in float32 and no row is fully masked
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/X-Hell/MiniGPT https://github.com/X-Hell/MiniGPT/commit/bfa1711886eb73efc446fa49d2cb63b187fc7a26 mini_transformer/attention.py
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


class Attention:
    def __init__(self, d_model, n_heads, rng):
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.W_qkv = rng.standard_normal((d_model, 3 * d_model)).astype(np.float32) * 0.02
        self.W_o = rng.standard_normal((d_model, d_model)).astype(np.float32) * 0.02

    def split(self, x_flat):
        t = x_flat.shape[0]
        qkv = (x_flat @ self.W_qkv).reshape(t, 3, self.n_heads, self.d_head).transpose(1, 2, 0, 3)
        return qkv[0][np.newaxis], qkv[1][np.newaxis], qkv[2][np.newaxis]

    def forward(self, x, kv_cache, start_pos, layer_idx):
        B, T, D = x.shape
        Q, K, V = self.split(x[0])
        K, V = kv_cache.update(K, V, start_pos, layer_idx)
        scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(self.d_head)
        if T > 1:
            _, _, T_q, T_k = scores.shape
            full_mask = np.triu(np.ones((T_q, T_k)) * -1e9, k=1 + (T_k - T_q))
            scores = scores + full_mask
        weights = softmax(scores, axis=-1)
        out = np.matmul(weights, V).transpose(0, 2, 1, 3).reshape(B, T, D)
        return (out[0] @ self.W_o)[np.newaxis], weights

    def forward_train(self, x):
        B, T, D = x.shape
        Q, K, V = self.split(x[0])
        scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(self.d_head)
        scores += np.triu(np.ones((T, T)) * -1e9, k=1)
        weights = softmax(scores, axis=-1)
        out = np.matmul(weights, V).transpose(0, 2, 1, 3).reshape(B, T, D)
        return (out[0] @ self.W_o)[np.newaxis]
