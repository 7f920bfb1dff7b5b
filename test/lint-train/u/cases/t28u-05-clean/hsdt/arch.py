from collections import OrderedDict

import torch.nn as nn

from .attention import TransformerBlock


def PlainConv(in_ch, out_ch):
    return nn.Sequential(OrderedDict([
        ("conv", nn.Conv3d(in_ch, out_ch, 3, 1, 1, bias=False)),
        ("bn", nn.BatchNorm3d(out_ch)),
        ("attn", TransformerBlock(out_ch, bias=True)),
    ]))


def DownConv(in_ch, out_ch):
    return nn.Sequential(OrderedDict([
        ("conv", nn.Conv3d(in_ch, out_ch, 3, (1, 2, 2), 1, bias=False)),
        ("bn", nn.BatchNorm3d(out_ch)),
        ("attn", TransformerBlock(out_ch, bias=True)),
    ]))


def UpConv(in_ch, out_ch):
    return nn.Sequential(OrderedDict([
        ("up", nn.Upsample(scale_factor=(1, 2, 2), mode="trilinear", align_corners=True)),
        ("conv", nn.Conv3d(in_ch, out_ch, 3, 1, 1, bias=False)),
        ("bn", nn.BatchNorm3d(out_ch)),
        ("attn", TransformerBlock(out_ch, bias=True)),
    ]))


class HSDT(nn.Module):
    """U-shaped 3-D network over (B, 1, bands, H, W) noisy cubes; every stage ends in a spectral transformer block."""

    def __init__(self, in_channels=1, channels=16, num_half_layer=5, sample_idx=(1, 3)):
        super().__init__()
        self.head = PlainConv(in_channels, channels)
        self.encoder = nn.ModuleList()
        ch = channels
        for i in range(num_half_layer):
            if i in sample_idx:
                self.encoder.append(DownConv(ch, 2 * ch))
                ch *= 2
            else:
                self.encoder.append(PlainConv(ch, ch))
        self.decoder = nn.ModuleList()
        for i in reversed(range(num_half_layer)):
            if i in sample_idx:
                self.decoder.append(UpConv(ch, ch // 2))
                ch //= 2
            else:
                self.decoder.append(PlainConv(ch, ch))
        self.tail = nn.Conv3d(channels, 1, 3, 1, 1, bias=True)

    def forward(self, x):
        xs = [x]
        out = self.head(x)
        xs.append(out)
        for layer in self.encoder[:-1]:
            out = layer(out)
            xs.append(out)
        out = self.encoder[-1](out)
        out = self.decoder[0](out)
        for layer in self.decoder[1:]:
            out = layer(out + xs.pop())
        out = self.tail(out + xs.pop())
        return out + xs.pop()[:, 0:1]
