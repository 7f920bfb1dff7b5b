# case: b53-06-clean
# modelled-on: Amn04/tinygreet https://github.com/Amn04/tinygreet/commit/18c4d4d7ec55c33357ea51e3afe50f610232f781
# label: correct
# class: clean
# pattern: a from-scratch NumPy decoder attention with a per-layer key/value cache (a folder: the attention module, whose causal self-attention builds an additive square mask without a cache and a rectangular (new, cached + new) mask with one, and the greedy decoder that runs the whole prompt first and then one token per step)
# why: correct: without a cache the mask is the upper triangle of -inf above the diagonal; with a cache, query i of the new block sits at absolute position cached + i and the mask blocks only keys after cached + i (-1e9, float32), so it is sized and offset for the cached keys; the cache is updated before the product, so the keys have cached + new rows; the scores are divided by sqrt(head_dim) and the softmax runs over the last (key) axis; the binomial dropout mask multiplied into the weights after the softmax is inverted dropout during training, not a padding mask
# looks-like: ATT006, ATT007, ATT008
# source: https://github.com/Amn04/tinygreet https://github.com/Amn04/tinygreet/commit/18c4d4d7ec55c33357ea51e3afe50f610232f781 model/attention.py
from typing import Dict, Optional, Tuple

import numpy as np


class LayerCache:
    """Keys and values already computed, per layer, shaped (batch, heads, seen, head_dim)."""

    def __init__(self, n_layers: int, limit: int = 2048):
        self.n_layers = n_layers
        self.limit = limit
        self.store: Dict[int, Tuple[np.ndarray, np.ndarray]] = {}

    def peek(self, layer: int) -> Optional[Tuple[np.ndarray, np.ndarray]]:
        return self.store.get(layer)

    def push(self, layer: int, k_new: np.ndarray, v_new: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        if layer in self.store:
            k_old, v_old = self.store[layer]
            k_new = np.concatenate([k_old, k_new], axis=2)[:, :, -self.limit:]
            v_new = np.concatenate([v_old, v_new], axis=2)[:, :, -self.limit:]
        self.store[layer] = (k_new, v_new)
        return k_new, v_new


def square_future_mask(n: int) -> np.ndarray:
    """0 where j <= i, -inf where j > i."""
    return np.triu(np.full((n, n), -np.inf), k=1).astype(np.float32)


def attend(q, k, v, additive=None, drop=0.0, training=False, rng=None):
    scale = 1.0 / np.sqrt(q.shape[-1])
    scores = (q @ np.swapaxes(k, -1, -2)) * scale
    if additive is not None:
        scores = scores + additive
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    if training and drop > 0:
        rng = rng or np.random.default_rng()
        keep = rng.binomial(1, 1.0 - drop, size=w.shape).astype(np.float32)
        w = w * keep / (1.0 - drop)
    return w @ v, w


class CachedSelfAttention:
    def __init__(self, width: int, heads: int, max_len: int = 512, seed: int = 0):
        assert width % heads == 0
        rng = np.random.default_rng(seed)
        self.heads, self.hd = heads, width // heads
        std = np.sqrt(2.0 / (2 * width))
        self.w_q, self.w_k, self.w_v, self.w_o = (rng.normal(0, std, (width, width)) for _ in range(4))
        self.future = square_future_mask(max_len)

    def _heads(self, x: np.ndarray) -> np.ndarray:
        b, t, _ = x.shape
        return x.reshape(b, t, self.heads, self.hd).transpose(0, 2, 1, 3)

    def __call__(self, x: np.ndarray, cache: Optional[LayerCache] = None, layer: int = 0) -> np.ndarray:
        b, t, width = x.shape
        seen = cache.peek(layer) if cache is not None else None
        if seen is not None:
            past = seen[0].shape[2]
            additive = np.zeros((t, past + t), dtype=np.float32)
            for i in range(t):
                additive[i, past + i + 1:] = -1e9
        else:
            additive = self.future[:t, :t]

        q, k, v = self._heads(x @ self.w_q), self._heads(x @ self.w_k), self._heads(x @ self.w_v)
        if cache is not None:
            k, v = cache.push(layer, k, v)
        out, _ = attend(q, k, v, additive[None, None])
        return out.transpose(0, 2, 1, 3).reshape(b, t, width) @ self.w_o
