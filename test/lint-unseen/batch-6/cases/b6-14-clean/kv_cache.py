from typing import Optional, Tuple

import numpy as np


class KVCache:
    def __init__(self, max_batch_size, max_seq_len, num_heads, head_dim, dtype=np.float32):
        self.k_cache = np.zeros((max_batch_size, num_heads, max_seq_len, head_dim), dtype=dtype)
        self.v_cache = np.zeros((max_batch_size, num_heads, max_seq_len, head_dim), dtype=dtype)
        self.max_seq_len = max_seq_len
        self.current_len = 0

    def update(self, key_states, value_states) -> Tuple[np.ndarray, np.ndarray]:
        batch_size, num_heads, new_len, _ = key_states.shape
        start, end = self.current_len, self.current_len + new_len
        if end > self.max_seq_len:
            raise ValueError("KV cache overflow")
        self.k_cache[:batch_size, :num_heads, start:end] = key_states
        self.v_cache[:batch_size, :num_heads, start:end] = value_states
        self.current_len = end
        return self.k_cache[:batch_size, :num_heads, :end], self.v_cache[:batch_size, :num_heads, :end]


def scaled_dot_product_attention(q, k, v, mask: Optional[np.ndarray] = None, scale: Optional[float] = None):
    """q (B, H, Lq, d); k, v (B, H, Lk, d); mask additive (.., Lq, Lk)."""
    if scale is None:
        scale = 1.0 / np.sqrt(q.shape[-1])
    scores = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    if mask is not None:
        scores = scores + mask
    scores_max = np.max(scores, axis=-1, keepdims=True)
    exp_scores = np.exp(scores - scores_max)
    weights = exp_scores / (np.sum(exp_scores, axis=-1, keepdims=True) + 1e-12)
    return np.matmul(weights, v), weights


def decode_step(q_new, k_new, v_new, cache: KVCache):
    """One generated token: q_new (B, H, 1, d) attends to every cached key, its own included."""
    k_all, v_all = cache.update(k_new, v_new)
    out, _ = scaled_dot_product_attention(q_new, k_all, v_all)
    return out
