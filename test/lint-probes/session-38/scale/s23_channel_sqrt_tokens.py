import torch
import torch.nn as nn


class ChannelAttention(nn.Module):
    """Attention across channels of a (B, C, H*W) map: the product sums over the N pixels."""

    def __init__(self, channels):
        super().__init__()
        self.q = nn.Conv2d(channels, channels, 1)
        self.k = nn.Conv2d(channels, channels, 1)
        self.v = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        n = h * w
        q = self.q(x).view(b, c, n)
        k = self.k(x).view(b, c, n)
        v = self.v(x).view(b, c, n)
        attn = torch.bmm(q, k.transpose(1, 2)) / (n ** 0.5)  # (b, c, c)
        attn = attn.softmax(dim=-1)
        return torch.bmm(attn, v).view(b, c, h, w)
