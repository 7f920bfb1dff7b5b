import torch
from torch import nn

from attention import attend


class Decoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def split(self, x):
        B, T, _ = x.shape
        return self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)

    def prefill(self, x):
        q, k, v = self.split(x)
        return attend(q, k, v, causal=True), (k, v)

    def decode(self, x_one, cache):
        q, k, v = self.split(x_one)
        k = torch.cat([cache[0], k], dim=2)
        v = torch.cat([cache[1], v], dim=2)
        return attend(q, k, v, causal=False), (k, v)
