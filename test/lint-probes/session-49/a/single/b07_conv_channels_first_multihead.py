import torch
import torch.nn as nn


class ConvMHSA(nn.Module):
    def __init__(self, channels, heads=4):
        super().__init__()
        self.heads = heads
        self.q = nn.Conv2d(channels, channels, 1)
        self.k = nn.Conv2d(channels, channels, 1)
        self.v = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        q = self.q(x).view(B, self.heads, C // self.heads, H * W)
        k = self.k(x).view(B, self.heads, C // self.heads, H * W)
        v = self.v(x).view(B, self.heads, C // self.heads, H * W)
        scale = q.shape[2] ** -0.5
        energy = torch.matmul(q.transpose(-1, -2), k) * scale
        attn = energy.softmax(dim=-1)
        out = torch.matmul(v, attn.transpose(-1, -2))
        return out.view(B, C, H, W) + x
