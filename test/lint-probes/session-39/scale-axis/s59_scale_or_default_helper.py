import math
import torch
import torch.nn as nn


def attend(q, k, v, scale=None):
    # q, k, v: (B, H, T, d); a caller that scaled q passes scale=1.0
    scale = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    w = torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1)
    return w @ v


class PreScaled(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q = q * self.hd ** -0.5
        return attend(q, k, v, scale=1.0).transpose(1, 2).reshape(B, T, D)
