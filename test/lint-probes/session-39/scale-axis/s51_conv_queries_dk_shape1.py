import numpy as np
import torch
import torch.nn as nn


class PointAttention(nn.Module):
    """Point-cloud self-attention with channels-first features: dk = q.shape[1] is the channel width."""

    def __init__(self, channels):
        super().__init__()
        self.q_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.k_conv = nn.Conv1d(channels, channels // 4, 1, bias=False)
        self.v_conv = nn.Conv1d(channels, channels, 1)

    def forward(self, x):
        # x: (B, C, N)
        q = self.q_conv(x)  # (B, C/4, N)
        k = self.k_conv(x)  # (B, C/4, N)
        v = self.v_conv(x)
        dk = q.shape[1]
        energy = torch.bmm(q.permute(0, 2, 1), k) / np.sqrt(dk)  # (B, N, N)
        attention = torch.softmax(energy, dim=-1)
        return torch.bmm(v, attention.permute(0, 2, 1))
