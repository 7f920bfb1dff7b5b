import math
import torch
import torch.nn as nn


class ConvAttention(nn.Module):
    """q, k, v from 1x1 convs, channels first (B, d, N): k.size(1) is the feature width."""

    def __init__(self, c, d):
        super().__init__()
        self.q = nn.Conv1d(c, d, 1)
        self.k = nn.Conv1d(c, d, 1)
        self.v = nn.Conv1d(c, c, 1)

    def forward(self, x):
        # x: (B, c, N)
        q, k, v = self.q(x), self.k(x), self.v(x)  # (B, d, N), (B, d, N), (B, c, N)
        attn = torch.bmm(q.transpose(1, 2), k) / math.sqrt(k.size(1))  # (B, N, N)
        attn = attn.softmax(dim=-1)
        return torch.bmm(v, attn.transpose(1, 2))  # (B, c, N)
