import torch
import torch.nn as nn

from pooling import AttentiveStatsPool


class MaxOut2d(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        return torch.maximum(a, b)


class SpoofDetector(nn.Module):
    def __init__(self, n_bins=60, crop_frames=750, emb=64):
        super().__init__()
        self.crop = crop_frames
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 64, 5, padding=2), MaxOut2d(), nn.MaxPool2d(2, 2),
            nn.Conv2d(32, 64, 1), MaxOut2d(), nn.BatchNorm2d(32, affine=False),
            nn.Conv2d(32, 96, 3, padding=1), MaxOut2d(), nn.MaxPool2d(2, 2),
            nn.Conv2d(48, 64, 3, padding=1), MaxOut2d(), nn.MaxPool2d(2, 2),
            nn.Dropout(0.7),
        )
        width = (n_bins // 8) * 32
        self.pool = AttentiveStatsPool(width)
        self.head = nn.Linear(width * 2, emb)

    def fixed_length(self, feats):
        """Tile short utterances and cut long ones so that every item has exactly `crop` frames."""
        t = feats.shape[1]
        if t < self.crop:
            feats = feats.repeat(1, self.crop // t + 1, 1)
        return feats[:, : self.crop]

    def forward(self, feats):
        x = self.fixed_length(feats).unsqueeze(1)  # (batch, 1, frames, bins)
        h = self.cnn(x)  # (batch, channels, frames', bins')
        h = h.permute(0, 2, 1, 3).contiguous()
        h = h.view(h.shape[0], h.shape[1], -1)  # (batch, frames', channels * bins')
        return self.head(self.pool(h))
