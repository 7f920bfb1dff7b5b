from typing import Optional

import torch
from torch import nn

from heads import HeadedAttention


def band(n: int, back: int, ahead: int) -> torch.Tensor:
    """n x n matrix of ones where query i may read key j (i - back <= j <= i + ahead), zeros elsewhere."""
    return torch.ones(n, n).triu(-back).tril(ahead)


def left_only(n: int, reach: Optional[int] = None) -> torch.Tensor:
    return band(n, n if reach is None else reach, 0)


class Residual(nn.Module):
    def __init__(self, inner: nn.Module, width: int, p_drop: float, eps: float = 1e-9):
        super().__init__()
        self.inner = inner
        self.drop = nn.Dropout(p_drop)
        self.norm = nn.LayerNorm([width], eps)

    def forward(self, x, *args):
        return self.norm(x + self.drop(self.inner(x, *args)))


class DecoderLayer(nn.Module):
    def __init__(self, n_heads: int, width: int, ff_width: int, p_drop: float, qk_width: Optional[int] = None, v_width: Optional[int] = None):
        super().__init__()
        make = lambda: HeadedAttention(n_heads, width, p_drop, bias=True, qk_width=qk_width, v_width=v_width)
        self.self_attn = Residual(make(), width, p_drop)
        self.cross_attn = Residual(make(), width, p_drop)
        ff = nn.Sequential(nn.Linear(width, ff_width), nn.ReLU(), nn.Dropout(p_drop), nn.Linear(ff_width, width))
        self.ff = nn.ModuleDict({"body": ff})
        self.ff_norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor, memory: Optional[torch.Tensor] = None) -> torch.Tensor:
        n = x.shape[1]
        allowed = left_only(n).to(device=x.device, dtype=x.dtype)
        h = self.self_attn(x, x, x, allowed)
        if memory is not None:
            h = self.cross_attn(h, memory, memory)
        return self.ff_norm(h + self.ff["body"](h))
