import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MemoryAttention2d(nn.Module):
    """Attention of every pixel against a small learned memory of `slots` units (two 1x1 convolutions)."""

    def __init__(self, channels, slots=64):
        super().__init__()
        self.inp = nn.Conv2d(channels, channels, 1)
        self.slots = slots
        self.to_mem = nn.Conv1d(channels, slots, 1, bias=False)
        self.from_mem = nn.Conv1d(slots, channels, 1, bias=False)
        self.from_mem.weight.data = self.to_mem.weight.data.permute(1, 0, 2)
        self.out = nn.Sequential(nn.Conv2d(channels, channels, 1, bias=False), nn.BatchNorm2d(channels))
        for m in self.modules():
            if isinstance(m, nn.Conv1d):
                m.weight.data.normal_(0, math.sqrt(2.0 / (m.kernel_size[0] * m.out_channels)))

    def forward(self, x):
        residual = x
        x = self.inp(x)
        b, c, h, w = x.shape
        x = x.view(b, c, h * w)  # (b, c, n)
        att = self.to_mem(x)  # (b, slots, n)
        att = F.softmax(att, dim=-1)  # over the n pixels
        att = att / (1e-9 + att.sum(dim=1, keepdim=True))  # then l1 over the memory slots
        x = self.from_mem(att).view(b, c, h, w)
        return F.relu(self.out(x) + residual)
