import math

import torch
import torch.nn as nn


class ChannelPositionalEncoding(nn.Module):
    """Sinusoidal encoding laid out as (channels, positions), added to (batch, channels, positions)."""

    def __init__(self, channels, dropout=0.1, max_len=256):
        super().__init__()
        self.drop = nn.Dropout(p=dropout)
        table = torch.zeros(channels, max_len)
        pos = torch.arange(0, max_len, dtype=torch.float)
        freq = torch.exp(torch.arange(0, channels, 2).float() * (-math.log(10000.0) / channels)).unsqueeze(1)
        table[0::2, :] = torch.sin(freq * pos)
        table[1::2, :] = torch.cos(freq * pos)
        self.register_buffer("table", table.unsqueeze(0))

    def forward(self, x):
        return self.drop(x + self.table[0, :, : x.shape[2]])
