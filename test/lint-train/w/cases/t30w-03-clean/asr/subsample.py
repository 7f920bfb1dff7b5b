"""Convolutional front end: two conv blocks, each ending in a 2x2 max-pool over (freq, time).

Frames past a sequence's length are zeroed after every layer, and the lengths are carried
through the pooling, so the encoder gets (B, T // 4, C) features and their true lengths.
"""
import torch
from torch import nn


class VGGFrontEnd(nn.Module):
    def __init__(self, n_mels: int, channels: tuple[int, int] = (64, 128)) -> None:
        super().__init__()
        c1, c2 = channels
        self.layers = nn.ModuleList([
            nn.Conv2d(1, c1, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(c1, c2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2),
        ])
        self.out_dim = c2 * (n_mels // 4)

    def forward(self, feats: torch.Tensor, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = feats.unsqueeze(1).transpose(2, 3)  # (B, 1, n_mels, T)
        for layer in self.layers:
            x = layer(x)
            if isinstance(layer, nn.MaxPool2d):
                lengths = lengths // 2
            t = torch.arange(x.size(-1), device=x.device)
            x = x.masked_fill((t[None, :] >= lengths[:, None])[:, None, None, :], 0.0)
        b, c, f, t = x.shape
        return x.permute(0, 3, 1, 2).reshape(b, t, c * f), lengths
