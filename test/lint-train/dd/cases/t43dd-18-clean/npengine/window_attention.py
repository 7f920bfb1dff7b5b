# case: t43dd-18-clean
# modelled-on: danksup/llm-from-scratch https://github.com/danksup/llm-from-scratch/commit/05fafcd39bb4b545ca838bfce9bfb8644872983f
# label: correct
# class: clean
# pattern: sliding-window grouped-query attention in NumPy for a from-scratch LLM engine: keys and values padded with W zero rows in front and viewed with `as_strided` as windows (B, kv_heads, T, W + 1, Dh), queries as (B, kv_heads, rep, T, 1, Dh), scores `Q6 @ windows_K6.transpose(..., 5, 4)` squeezed to (B, heads, T, W + 1) and divided by sqrt(head_dim), then `np.where(window_mask, -inf, scores)` with `window_mask = arange(T)[:, None] + arange(W + 1)[None, :] < W` built by a static method, and a softmax over the last axis from another module
# why: correct: window slot w of query t holds key t - W + w, which is one of the zero rows in front exactly when t + w < W, so the mask is True on the padding slots and they get -inf; the last window slot (w = W) is the query's own position and is never masked, so no row is all -inf; the window holds only past keys, so no separate causal mask is needed; the softmax module normalises the last axis, the W + 1 window keys the product with the value windows sums over
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/danksup/llm-from-scratch https://github.com/danksup/llm-from-scratch/commit/05fafcd39bb4b545ca838bfce9bfb8644872983f engine/attention/attention_swa.py
import numpy as np
from numpy.lib.stride_tricks import as_strided

from .activations import softmax


class WindowAttention:
    def __init__(self, embed_dim, n_heads, n_kv_heads=-1, W=8):
        n_kv_heads = n_heads if n_kv_heads < 0 else n_kv_heads
        assert embed_dim % n_heads == 0 and n_heads % n_kv_heads == 0
        self.embed_dim = embed_dim
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = embed_dim // n_heads
        self.n_rep = n_heads // n_kv_heads
        self.W = W
        rng = np.random.default_rng(0)
        self.Wqkv = rng.standard_normal((embed_dim + 2 * n_kv_heads * self.head_dim, embed_dim)).astype(np.float32) * 0.02
        self.Wo = rng.standard_normal((embed_dim, embed_dim)).astype(np.float32) * 0.02

    @staticmethod
    def window_mask(W, T):
        slot = np.arange(W + 1).reshape((1, W + 1))
        t = np.arange(T).reshape((T, 1))
        return t + slot < W

    def forward(self, x):
        B, T, _ = x.shape
        D, kvh, hd = self.embed_dim, self.n_kv_heads, self.head_dim
        W = min(self.W, T - 1)
        qkv = x @ self.Wqkv.T
        Q = qkv[..., :D].reshape(B, T, self.n_heads, hd).transpose(0, 2, 1, 3)
        K = qkv[..., D : D + kvh * hd].reshape(B, T, kvh, hd).transpose(0, 2, 1, 3)
        V = qkv[..., D + kvh * hd :].reshape(B, T, kvh, hd).transpose(0, 2, 1, 3)

        Kp = np.ascontiguousarray(np.pad(K, [(0, 0), (0, 0), (W, 0), (0, 0)]))
        Vp = np.ascontiguousarray(np.pad(V, [(0, 0), (0, 0), (W, 0), (0, 0)]))
        item = Kp.itemsize
        strides = (kvh * (T + W) * hd * item, (T + W) * hd * item, hd * item, hd * item, item)
        shape = (B, kvh, T, W + 1, hd)
        win_K = as_strided(Kp, shape=shape, strides=strides)
        win_V = as_strided(Vp, shape=shape, strides=strides)

        Q6 = Q.reshape(B, kvh, self.n_rep, T, hd)[:, :, :, :, None, :]
        scores = Q6 @ win_K[:, :, None].transpose(0, 1, 2, 3, 5, 4)
        scores = scores[:, :, :, :, 0, :].reshape(B, -1, T, W + 1) / np.sqrt(hd)
        scores = np.where(self.window_mask(W, T), -np.inf, scores)
        weights = softmax(scores)

        w6 = weights.reshape(B, kvh, self.n_rep, T, W + 1)[:, :, :, :, None, :]
        out = (w6 @ win_V[:, :, None])[:, :, :, :, 0, :]
        out = out.transpose(0, 3, 1, 2, 4).reshape(B, T, D)
        return out @ self.Wo.T, weights
