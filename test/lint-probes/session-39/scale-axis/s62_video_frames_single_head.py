import torch
import torch.nn as nn


class SpatialPerFrame(nn.Module):
    """Per-frame spatial attention, one head: (B, F, N, C) with F frames; the channel width C is the head width."""

    def __init__(self, channels):
        super().__init__()
        self.channels = channels
        self.qkv = nn.Linear(channels, 3 * channels)

    def forward(self, x):
        # x: (B, F, N, C)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        s = torch.einsum("bfnc,bfmc->bfnm", q, k) * self.channels ** -0.5
        w = s.softmax(dim=-1)
        return torch.einsum("bfnm,bfmc->bfnc", w, v)


class TemporalMHA(nn.Module):
    def __init__(self, channels, heads):
        super().__init__()
        self.heads = heads
        self.dh = channels // heads
        self.proj = nn.Linear(channels, 3 * channels)
