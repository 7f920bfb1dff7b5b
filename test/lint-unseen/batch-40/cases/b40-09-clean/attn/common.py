"""Helpers shared by the attention variants of the model zoo."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def to_heads(x: torch.Tensor, heads: int) -> torch.Tensor:
    b, n, width = x.shape
    if width % heads:
        raise ValueError("width must be divisible by the number of heads")
    return x.view(b, n, heads, width // heads).transpose(1, 2)


def from_heads(x: torch.Tensor) -> torch.Tensor:
    b, _, n, _ = x.shape
    return x.transpose(1, 2).contiguous().view(b, n, -1)


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax(q k^T / sqrt(d) + bias) v, where bias is additive: 0 to keep a key, -inf to drop it."""
    logits = (q @ k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    if bias is not None:
        logits = logits + bias
    return F.softmax(logits, dim=-1) @ v
