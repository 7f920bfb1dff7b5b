from dataclasses import dataclass

import torch


@dataclass
class CacheState:
    """Keys and values seen so far, (batch, kv_heads, positions, head_dim)."""

    keys: torch.Tensor
    values: torch.Tensor

    def num_bytes(self) -> int:
        return self.keys.numel() * self.keys.element_size() + self.values.numel() * self.values.element_size()
