from typing import Optional

import torch
import torch.nn as nn

Tensor = torch.FloatTensor


class DotProductAttention(nn.Module):
    """Scaled dot-product attention (section 3.2.1): softmax(q k^T / sqrt(d_k)) v."""

    def __init__(self, query_key_dim: int) -> None:
        super().__init__()
        self.query_key_dim = query_key_dim
        self.register_buffer("scale", torch.sqrt(torch.FloatTensor([query_key_dim])))
        self.softmax = nn.Softmax(dim=3)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        # [batch, heads, len, d] @ [batch, heads, d, len] -> [batch, heads, len, len]
        x = torch.matmul(query, key.transpose(2, 3))
        x = x / self.scale  # expect: ATT004
        if mask is not None:
            x = x.masked_fill(mask == False, value=-1e9)
        x = self.softmax(x)
        return torch.matmul(x, value)
