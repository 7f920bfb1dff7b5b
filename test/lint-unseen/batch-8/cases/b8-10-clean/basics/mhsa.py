import math

import torch
import torch.nn as nn
from torch import Tensor

from basics.sdpa import ScaledDotProductAttention


class CausalMHSA(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        std = math.sqrt(2.0 / (2 * d_model))
        self.Q = nn.Parameter(torch.randn(d_model, d_model) * std)
        self.K = nn.Parameter(torch.randn(d_model, d_model) * std)
        self.V = nn.Parameter(torch.randn(d_model, d_model) * std)
        self.O = nn.Parameter(torch.randn(d_model, d_model) * std)
        self.attend = ScaledDotProductAttention()

    def forward(self, x: Tensor) -> Tensor:
        *batch, seq_len, _ = x.shape
        q = (x @ self.Q.T).reshape(*batch, seq_len, self.num_heads, -1).transpose(-3, -2)
        k = (x @ self.K.T).reshape(*batch, seq_len, self.num_heads, -1).transpose(-3, -2)
        v = (x @ self.V.T).reshape(*batch, seq_len, self.num_heads, -1).transpose(-3, -2)
        allowed = ~torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool, device=x.device), diagonal=1)
        out = self.attend(q, k, v, allowed)
        return out.transpose(-3, -2).contiguous().reshape(*batch, seq_len, -1) @ self.O.T
