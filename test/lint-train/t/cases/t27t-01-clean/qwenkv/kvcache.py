"""Preallocated key/value storage, one slot range per layer.

k/v: (num_layers, 1, num_kv_heads, max_seq_len, head_dim). `append` writes the new
keys at [length : length + T] and returns every key stored so far for that layer;
only the last layer moves `length`, so all layers of one forward see the same start.
"""
import torch
from torch import Tensor


class KVCache:
    def __init__(self, num_layers: int, num_kv_heads: int, head_dim: int, max_seq_len: int,
                 dtype: torch.dtype, device: str = "cpu") -> None:
        self.num_layers = num_layers
        self.max_seq_len = max_seq_len
        shape = (num_layers, 1, num_kv_heads, max_seq_len, head_dim)
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)
        self.length = 0

    def append(self, layer_idx: int, k_new: Tensor, v_new: Tensor) -> tuple[Tensor, Tensor]:
        # k_new, v_new: (1, Hkv, T, D)
        end = self.length + k_new.shape[2]
        if end > self.max_seq_len:
            raise RuntimeError(f"cache overflow: {end} > {self.max_seq_len}")
        self.k[layer_idx, :, :, self.length:end] = k_new
        self.v[layer_idx, :, :, self.length:end] = v_new
        k_all = self.k[layer_idx, :, :, :end]  # (1, Hkv, end, D)
        v_all = self.v[layer_idx, :, :, :end]
        if layer_idx == self.num_layers - 1:
            self.length = end
        return k_all, v_all

    def reset(self) -> None:
        self.length = 0
