import math

import torch
from torch.nn import functional as F


def scaled_dotprod_attn(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, d: int) -> torch.Tensor:
    """Scaled dot-product attention as described in the paper; q, k, v: (batch, seq_len, d)."""
    qk = q @ k  # expect: ATT005
    qk /= math.sqrt(d)
    # no peeking at later items
    ones = torch.ones(size=qk.shape)
    future = torch.triu(ones, diagonal=1) * (-1e9)
    qk += future.to(qk.device.type)
    weights = F.softmax(qk, dim=-1)
    return weights @ v
