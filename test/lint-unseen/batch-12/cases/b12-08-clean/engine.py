# case: b12-08-clean
# modelled-on: yifanes/tiny-llm-from-scratch https://github.com/yifanes/tiny-llm-from-scratch/commit/1f7e770edd378f681d02de88c042e41394940ad7
# label: correct
# class: clean
# pattern: an inference-only NumPy port of a small character GPT whose heads are separate (batch, T, head_size) projections: the uncached head masks np.triu(ones, k=1) with np.where(future, -inf, scores); the cached head concatenates the cache (a dataclass in another module) with the new keys and values on axis 1 and builds its mask from absolute positions, key_pos > past_length + arange(new), so new queries see every cached key and the earlier new ones; scores are q @ swapaxes(k, -2, -1) * head_size ** -0.5 and a max-shifted softmax over the last axis
# why: correct: the cached mask is aligned to the bottom right (a new query at absolute position p sees keys 0..p), which is what decoding with a cache needs, and it reduces to the triu mask when the cache is empty; every row keeps at least its own position, so no row is all -inf; each head is head_size wide, so head_size ** -0.5 is the per-head scale; swapaxes(-2, -1) transposes the last two axes of 3-D keys; what a naive linter could misread: ATT008 (a causal mask with a cache), ATT002 (np.where with the mask as the condition for the fill), ATT007 (-inf), ATT004 (a scale from the config), ATT005 (swapaxes)
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/yifanes/tiny-llm-from-scratch https://github.com/yifanes/tiny-llm-from-scratch/commit/1f7e770edd378f681d02de88c042e41394940ad7 infer/numpy_engine.py
import numpy as np

from kv_cache import HeadCache


def linear(x, weight, bias=None):
    """PyTorch Linear convention: y = x @ weight.T + bias."""
    y = x @ weight.T
    return y if bias is None else y + bias


def softmax(x, axis: int = -1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return np.asarray(e / np.sum(e, axis=axis, keepdims=True), dtype=np.float32)


class NumpyGPT:
    def __init__(self, weights: dict, n_head: int, head_size: int):
        self.w = weights
        self.n_head = n_head
        self.head_size = head_size

    def _proj(self, x, block: int, head: int):
        p = f"blocks.{block}.heads.{head}"
        return (linear(x, self.w[f"{p}.query"]), linear(x, self.w[f"{p}.key"]), linear(x, self.w[f"{p}.value"]))

    def head(self, x, block: int, head: int):
        q, k, v = self._proj(x, block, head)
        scores = (q @ np.swapaxes(k, -2, -1)) * np.float32(self.head_size ** -0.5)
        t = x.shape[1]
        future = np.triu(np.ones((t, t), dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
        return softmax(scores) @ v

    def head_cached(self, x, block: int, head: int, cached, past_length: int):
        q, k, v = self._proj(x, block, head)
        if cached is not None:
            k = np.concatenate((cached.key, k), axis=1)
            v = np.concatenate((cached.value, v), axis=1)
        scores = (q @ np.swapaxes(k, -2, -1)) * np.float32(self.head_size ** -0.5)
        query_pos = past_length + np.arange(x.shape[1])[:, None]
        key_pos = np.arange(k.shape[1])[None, :]
        scores = np.where(key_pos > query_pos, -np.inf, scores)
        out = softmax(scores) @ v
        return np.asarray(out, dtype=np.float32), HeadCache(key=k, value=v)
