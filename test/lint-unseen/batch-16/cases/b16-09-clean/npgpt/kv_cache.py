import numpy as np


class KVCache:
    """Pre-allocated (layers, 1, heads, max_len, d_head) buffers for autoregressive decoding."""

    def __init__(self, max_len, n_heads, d_head, n_layers=1):
        self.max_len = max_len
        self.k_cache = np.zeros((n_layers, 1, n_heads, max_len, d_head), dtype=np.float32)
        self.v_cache = np.zeros((n_layers, 1, n_heads, max_len, d_head), dtype=np.float32)
        self.current_len = 0

    def update(self, new_k, new_v, start_pos, layer_idx):
        t = new_k.shape[2]
        if start_pos + t > self.max_len:
            raise ValueError("KV cache overflow")
        self.k_cache[layer_idx, :, :, start_pos : start_pos + t, :] = new_k
        self.v_cache[layer_idx, :, :, start_pos : start_pos + t, :] = new_v
        if layer_idx == 0 and start_pos + t > self.current_len:
            self.current_len = start_pos + t
        return (
            self.k_cache[layer_idx, :, :, : self.current_len, :],
            self.v_cache[layer_idx, :, :, : self.current_len, :],
        )
