import math

import torch
import torch.nn as nn


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model: int, max_len: int = 5000) -> None:
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(1, max_len, d_model)
        table[0, :, 0::2] = torch.sin(position * div_term)
        table[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("table", table)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.table[:, : x.size(1)]
