import torch
import torch.nn as nn


class GatedHeads(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.gate = nn.Linear(d, h)

    def forward(self, x, causal_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-1, -2)) / (D // self.h) ** 0.5
        s = s.masked_fill(causal_mask[:T, :T] == 0, float("-inf"))
        w = s.softmax(-1)
        g = torch.sigmoid(self.gate(x.mean(1)))[:, :, None, None]  # (B, h, 1, 1) per-head gate
        w = w * g
        return (w @ v).transpose(1, 2).reshape(B, T, D)


def make_causal(n):
    return torch.tril(torch.ones(n, n))
