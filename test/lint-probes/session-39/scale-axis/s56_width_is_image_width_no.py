import torch
import torch.nn as nn


class RowAttention(nn.Module):
    """Attention along image rows: each row of `width` pixels attends within itself, one head over `channels`."""

    def __init__(self, channels):
        super().__init__()
        self.channels = channels
        self.qkv = nn.Conv2d(channels, 3 * channels, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=1)
        q = q.permute(0, 2, 3, 1)  # (B, H, W, C)
        k = k.permute(0, 2, 3, 1)
        v = v.permute(0, 2, 3, 1)
        s = q @ k.transpose(-1, -2) * self.channels ** -0.5  # (B, H, W, W)
        a = s.softmax(dim=-1)
        return (a @ v).permute(0, 3, 1, 2)
