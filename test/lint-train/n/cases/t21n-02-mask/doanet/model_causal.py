import torch
import torch.nn as nn

from doanet.blocks import AttentionBlock, DenseBlock


class CausalDOANet(nn.Module):
    """Frame-wise direction-of-arrival estimation for online use: every attention block runs with causal=True."""

    def __init__(self, bins=256, causal=True):
        super().__init__()
        self.causal = causal
        self.inp = nn.Sequential(nn.Conv2d(8, 8, 1), nn.ReLU(), nn.BatchNorm2d(8))
        self.dense = nn.ModuleList([DenseBlock(8) for _ in range(4)])
        self.time_attn = nn.ModuleList([AttentionBlock(bins // (4 ** i), bins // (4 ** (i + 1))) for i in range(4)])
        self.freq_attn = nn.ModuleList([AttentionBlock(8, 8) for _ in range(4)])
        self.head = nn.Linear(8, 6)

    def forward(self, feats):  # (B, 8, T, F)
        x = self.inp(feats)
        for i in range(4):
            x = self.dense[i](x)                                      # (B, 8, T, F_i)
            xt, _ = self.time_attn[i](x.permute(0, 3, 1, 2), causal=self.causal)  # (B, F_i, 8, T): attention over T
            x = xt.permute(0, 2, 3, 1)                                # (B, 8, T, F_i / 4)
            x, _ = self.freq_attn[i](x, causal=self.causal)
        out = x.squeeze(-1).transpose(1, 2)                           # (B, T, 8)
        return self.head(out).mean(1)
