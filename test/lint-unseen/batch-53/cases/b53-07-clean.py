# case: b53-07-clean
# modelled-on: Annemarie535257/MiniChefGPT https://github.com/Annemarie535257/MiniChefGPT/commit/dfdf35c56b91fa69e38300274695dcfe1c1c0bbc
# label: correct
# class: clean
# pattern: an inspectable NumPy multi-head causal self-attention for a recipe language model, with boolean masks (True = may attend) combined by logical_and and applied with np.where
# why: correct: the causal mask is np.tril of ones as booleans, True on and below the diagonal, an optional extra mask is and-ed into it with the same polarity, and the scores are kept where the mask is True and set to -inf elsewhere; every row keeps its diagonal unless the caller's extra mask removes it, which the docstring leaves to the caller; the scores are divided by sqrt of the per-head depth and the softmax is over the last (key) axis; swapaxes(key, -1, -2) transposes the keys' last two axes
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/Annemarie535257/MiniChefGPT https://github.com/Annemarie535257/MiniChefGPT/commit/dfdf35c56b91fa69e38300274695dcfe1c1c0bbc src/attention.py
from typing import Optional, Tuple

import numpy as np


def lower_true(n: int) -> np.ndarray:
    """Boolean (n, n): True where position i may look at position j (j <= i)."""
    if n < 1:
        raise ValueError("need at least one position")
    return np.tril(np.ones((n, n), dtype=bool))


def stable_softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attend(q: np.ndarray, k: np.ndarray, v: np.ndarray, allowed: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
    """q: (..., Lq, d), k: (..., Lk, d), v: (..., Lk, dv); allowed broadcasts to (..., Lq, Lk), True = keep."""
    if q.shape[-1] != k.shape[-1] or k.shape[-2] != v.shape[-2]:
        raise ValueError("shape mismatch between query, key and value")
    logits = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if allowed is not None:
        allowed = np.asarray(allowed, dtype=bool)
        if np.broadcast_shapes(allowed.shape, logits.shape) != logits.shape:
            raise ValueError(f"mask {allowed.shape} does not fit scores {logits.shape}")
        logits = np.where(allowed, logits, -np.inf)
    w = stable_softmax(logits, axis=-1)
    return w @ v, w


class RecipeSelfAttention:
    def __init__(self, width: int, n_heads: int, *, seed: Optional[int] = None):
        if width < 1 or n_heads < 1 or width % n_heads:
            raise ValueError("width must be a positive multiple of n_heads")
        self.width, self.n_heads, self.depth = width, n_heads, width // n_heads
        rng = np.random.default_rng(seed)
        std = width ** -0.5
        self.wq, self.wk, self.wv, self.wo = (rng.normal(0.0, std, (width, width)) for _ in range(4))

    def _split(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        b, n, _ = x.shape
        return (x @ w).reshape(b, n, self.n_heads, self.depth).transpose(0, 2, 1, 3)

    def __call__(self, x: np.ndarray, extra: Optional[np.ndarray] = None, *, with_weights: bool = False):
        x = np.asarray(x, dtype=float)
        if x.ndim != 3 or x.shape[-1] != self.width:
            raise ValueError(f"expected (batch, length, {self.width})")
        b, n, _ = x.shape
        allowed = lower_true(n)
        if extra is not None:
            # (n, n) or (batch, n, n), same polarity: True = keep
            allowed = np.logical_and(allowed, np.asarray(extra, dtype=bool))
            if allowed.ndim == 3:
                allowed = allowed[:, None]
        out, w = attend(self._split(x, self.wq), self._split(x, self.wk), self._split(x, self.wv), allowed)
        y = out.transpose(0, 2, 1, 3).reshape(b, n, self.width) @ self.wo
        return (y, w) if with_weights else y
