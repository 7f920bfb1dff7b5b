import math

import torch
from torch import nn


class CausalHeads(nn.Module):
    """Multi-head self-attention over a fixed maximum context."""

    def __init__(self, dim: int, heads: int, max_context: int, p: float, bias: bool = True):
        super().__init__()
        if dim % heads:
            raise ValueError("dim must be divisible by heads")
        self.heads = heads
        self.d_head = dim // heads
        self.qk_scale = 1.0 / math.sqrt(self.d_head)
        self.fused = nn.Linear(dim, 3 * dim, bias=bias)
        self.out = nn.Linear(dim, dim, bias=bias)
        self.p_attn = nn.Dropout(p)
        self.p_out = nn.Dropout(p)
        lower = torch.tril(torch.ones(max_context, max_context))
        self.register_buffer("lower", lower[None, None], persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, c = x.shape
        # (b, n, 3*c) -> (3, b, heads, n, d_head)
        parts = self.fused(x).view(b, n, 3, self.heads, self.d_head).permute(2, 0, 3, 1, 4)
        q, k, v = parts[0], parts[1], parts[2]

        s = torch.matmul(q, k.transpose(-2, -1)) * self.qk_scale
        s = s.masked_fill(self.lower[:, :, :n, :n] == 0, float("-inf"))
        w = self.p_attn(torch.softmax(s, dim=-1))
        y = torch.matmul(w, v).transpose(1, 2).contiguous().view(b, n, c)
        return self.p_out(self.out(y))
