import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, key_padding_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / (D // self.h) ** 0.5
        s = s.masked_fill(key_padding_mask[:, None, None, :], -1e9)
        return self.out((s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D))
