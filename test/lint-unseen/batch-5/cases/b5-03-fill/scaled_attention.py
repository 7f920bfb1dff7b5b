from typing import Optional

import torch
import torch.nn as nn

Tensor = torch.Tensor


class ScaledDotAttention(nn.Module):
    """Scaled dot-product attention; `mask` is True where a key may be seen."""

    def __init__(self, key_size: int, *, temperature: Optional[float] = None) -> None:
        super().__init__()
        divisor = torch.sqrt(torch.FloatTensor([key_size]))
        if temperature is not None:
            divisor = torch.FloatTensor([temperature])
        self.register_buffer("divisor", divisor)
        self.softmax = nn.Softmax(dim=3)

    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        # q: (batch, heads, n_q, key_size), k^T: (batch, heads, key_size, n_k) -> (batch, heads, n_q, n_k)
        scores = torch.matmul(q, k.transpose(2, 3))
        scores = scores / self.divisor
        if mask is not None:
            scores = scores.masked_fill(mask == False, value=1e-9)  # expect: ATT007
        weights = self.softmax(scores)
        # (batch, heads, n_q, n_k) @ (batch, heads, n_k, value_size)
        return torch.matmul(weights, v)
