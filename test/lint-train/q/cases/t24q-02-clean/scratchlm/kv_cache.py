from dataclasses import dataclass

import torch
from torch import Tensor


@dataclass
class CacheConfig:
    batch_size: int
    max_seq_len: int
    n_layers: int
    n_heads: int
    head_dim: int
    device: str = "cpu"
    dtype: torch.dtype = torch.float32


class ContiguousKVCache:
    """Preallocated keys/values: [n_layers, B, H, max_seq_len, D]."""

    def __init__(self, cfg: CacheConfig):
        shape = (cfg.n_layers, cfg.batch_size, cfg.n_heads, cfg.max_seq_len, cfg.head_dim)
        self.keys = torch.empty(shape, device=cfg.device, dtype=cfg.dtype)
        self.values = torch.empty(shape, device=cfg.device, dtype=cfg.dtype)

    def write(self, layer: int, keys: Tensor, values: Tensor, start_positions: Tensor) -> None:
        # keys/values: B x H x T_new x D; all rows of the batch start at the same position for now
        start = int(start_positions[0].item())
        self.keys[layer, :, :, start : start + keys.shape[2]] = keys
        self.values[layer, :, :, start : start + values.shape[2]] = values

    def read(self, layer: int, end_positions: Tensor) -> tuple[Tensor, Tensor]:
        end = int(end_positions[0].item())
        return self.keys[layer, :, :, :end], self.values[layer, :, :, :end]
