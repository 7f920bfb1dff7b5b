"""Grouped-query attention block with an optional key/value cache."""

import math
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
from torch import nn
from torch.nn import functional as F


@dataclass
class LayerKV:
    keys: torch.Tensor    # (B, kv_heads, S, head_dim)
    values: torch.Tensor  # (B, kv_heads, S, head_dim)


def square_future_bias(length: int, device: torch.device) -> torch.Tensor:
    """(1, 1, L, L) additive bias: 0 on and below the diagonal, -inf above it."""
    upper = torch.triu(torch.ones(length, length, device=device), diagonal=1)
    upper = upper.masked_fill(upper == 1, float("-inf"))
    return upper[None, None]


class GroupedAttention(nn.Module):
    def __init__(self, width: int, n_q_heads: int, n_kv_heads: int, p_drop: float = 0.0):
        super().__init__()
        if n_q_heads % n_kv_heads:
            raise ValueError("query heads must be a multiple of key/value heads")
        self.n_q = n_q_heads
        self.n_kv = n_kv_heads
        self.group = n_q_heads // n_kv_heads
        self.d_head = width // n_q_heads
        self.width = width
        self.wq = nn.Linear(width, n_q_heads * self.d_head, bias=False)
        self.wk = nn.Linear(width, n_kv_heads * self.d_head, bias=False)
        self.wv = nn.Linear(width, n_kv_heads * self.d_head, bias=False)
        self.wo = nn.Linear(n_q_heads * self.d_head, width, bias=False)
        self.drop = nn.Dropout(p_drop)
        self.inv_sqrt_d = 1.0 / math.sqrt(self.d_head)

    def _expand(self, t: torch.Tensor) -> torch.Tensor:
        if self.group == 1:
            return t
        b, h, s, d = t.shape
        return t[:, :, None].expand(b, h, self.group, s, d).reshape(b, h * self.group, s, d)

    def forward(
        self,
        h: torch.Tensor,
        bias: Optional[torch.Tensor] = None,
        past: Optional[LayerKV] = None,
        keep: bool = False,
    ) -> Tuple[torch.Tensor, Optional[LayerKV]]:
        b, t, _ = h.shape
        q = self.wq(h).view(b, t, self.n_q, self.d_head).transpose(1, 2)
        k = self.wk(h).view(b, t, self.n_kv, self.d_head).transpose(1, 2)
        v = self.wv(h).view(b, t, self.n_kv, self.d_head).transpose(1, 2)

        if past is not None:
            k = torch.cat([past.keys, k], dim=2)
            v = torch.cat([past.values, v], dim=2)
        present = LayerKV(k, v) if keep else None

        k, v = self._expand(k), self._expand(v)
        logits = torch.matmul(q, k.transpose(-2, -1)) * self.inv_sqrt_d
        if bias is not None:
            logits = logits + bias  # bias carries -inf where attention is not allowed
        probs = F.softmax(logits, dim=-1, dtype=torch.float32).to(q.dtype)
        ctx = torch.matmul(self.drop(probs), v)
        ctx = ctx.transpose(1, 2).contiguous().view(b, t, self.width)
        return self.wo(ctx), present
