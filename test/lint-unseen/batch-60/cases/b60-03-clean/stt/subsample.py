"""Two stride-2 convolutions: 4x fewer frames, and the frame counts that go with them."""

import torch
import torch.nn as nn


def after_stride2(n):
    # kernel 3, padding 1, stride 2
    return (n + 2 - 3) // 2 + 1


class FrameReducer(nn.Module):
    def __init__(self, n_mels: int, d_model: int, channels: int = 256):
        super().__init__()
        self.convs = nn.Sequential(
            nn.Conv2d(1, channels, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.proj = nn.Linear(channels * after_stride2(after_stride2(n_mels)), d_model)

    def forward(self, mels: torch.Tensor, lengths: torch.Tensor):
        y = self.convs(mels.unsqueeze(1))                  # (B, C, F', T')
        b, c, f, t = y.shape
        y = self.proj(y.permute(0, 3, 1, 2).reshape(b, t, c * f))
        return y, after_stride2(after_stride2(lengths))
