from typing import Callable, Optional, TypeVar, Union

import torch
import torch.nn as nn
import torch.nn.functional as F

T = TypeVar("T")


def exists(val: Optional[T]) -> bool:
    return val is not None


def default(val: Optional[T], fallback: Union[Callable[[], T], T]) -> T:
    if exists(val):
        return val
    return fallback() if callable(fallback) else fallback


def coin_flips(shape, p: float, device=None) -> torch.Tensor:
    """Boolean tensor, True with probability p (used to drop the style condition)."""
    if p <= 0:
        return torch.zeros(shape, dtype=torch.bool, device=device)
    if p >= 1:
        return torch.ones(shape, dtype=torch.bool, device=device)
    return torch.bernoulli(torch.full(shape, p, device=device)).bool()


class StyleLayerNorm(nn.Module):
    """LayerNorm over channels whose gain and bias are predicted from a style vector."""

    def __init__(self, style_dim: int, channels: int, eps: float = 1e-5):
        super().__init__()
        self.channels = channels
        self.eps = eps
        self.affine = nn.Linear(style_dim, 2 * channels)

    def forward(self, x: torch.Tensor, style: torch.Tensor) -> torch.Tensor:
        gain, bias = self.affine(style).unsqueeze(1).chunk(2, dim=-1)  # (b, 1, c) each
        x = F.layer_norm(x, (self.channels,), eps=self.eps)
        return (1 + gain) * x + bias
