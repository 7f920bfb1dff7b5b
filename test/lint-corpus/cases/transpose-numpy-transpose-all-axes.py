# case: transpose-numpy-transpose-all-axes
# modelled-on: HomericIntelligence/Odyssey https://github.com/HomericIntelligence/Odyssey/issues/5648
# label: buggy
# pattern: a batched NumPy attention (written for 2-D inputs first) transposes the keys with np.transpose(k) / k.T, which without axes reverses every axis of a (B, S, d) array
# why: the key "transpose" becomes (d, S, B) instead of (B, d, S): the matmul raises for most shapes and, when the sizes happen to line up, mixes batch entries; the fix is swapaxes(-1, -2)
import numpy as np


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def scaled_dot_product_attention_masked(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray = None) -> np.ndarray:
    """q: (B, L, d_k); k: (B, S, d_k); v: (B, S, d_v); mask: (B, L, S) bool, True = may attend."""
    d_k = q.shape[-1]
    scores = q @ np.transpose(k) / np.sqrt(d_k)  # expect: ATT005
    if mask is not None:
        scores = np.where(mask, scores, np.finfo(scores.dtype).min)
    return softmax(scores, axis=-1) @ v


def multi_head_attention_masked(x: np.ndarray, w_q, w_k, w_v, w_o, num_heads: int, mask: np.ndarray = None) -> np.ndarray:
    b, n, d_model = x.shape
    d_k = d_model // num_heads

    def split(t):  # (B, N, D) -> (B * H, N, d_k)
        return t.reshape(b, n, num_heads, d_k).transpose(0, 2, 1, 3).reshape(b * num_heads, n, d_k)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    if mask is not None:
        mask = np.repeat(mask, num_heads, axis=0)
    out = scaled_dot_product_attention_masked(q, k, v, mask)  # (B * H, N, d_k)
    out = out.reshape(b, num_heads, n, d_k).transpose(0, 2, 1, 3).reshape(b, n, d_model)
    return out @ w_o
