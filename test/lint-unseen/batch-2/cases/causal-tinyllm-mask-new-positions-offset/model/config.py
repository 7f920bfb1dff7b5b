from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class LMConfig:
    vocab_size: int = 8192
    d_model: int = 256
    n_heads: int = 8
    n_layers: int = 6
    context_length: int = 512
    dropout: float = 0.1

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads


class LayerCache:
    """Keys and values of one layer for the tokens seen so far: (B, H, T_past, d_k)."""

    def __init__(self) -> None:
        self.k: Optional[torch.Tensor] = None
        self.v: Optional[torch.Tensor] = None

    def update(self, k_new: torch.Tensor, v_new: torch.Tensor):
        if self.k is None:
            self.k, self.v = k_new, v_new
        else:
            self.k = torch.cat([self.k, k_new], dim=2)
            self.v = torch.cat([self.v, v_new], dim=2)
        return self.k, self.v
