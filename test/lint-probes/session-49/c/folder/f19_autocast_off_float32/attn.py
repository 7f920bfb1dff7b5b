import torch
import torch.nn as nn


class StableAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, key_pad):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        with torch.autocast("cuda", enabled=False):
            s = q.float() @ k.float().transpose(-1, -2) / (D // self.h) ** 0.5
            s = s.masked_fill(key_pad[:, None, None, :], -1e9)
            w = s.softmax(-1)
        return (w.to(v.dtype) @ v).transpose(1, 2).reshape(B, T, D)
