import math

import torch
from torch import nn

from masks import make_pad_mask


class RelAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)

    def forward(self, x, lengths):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k, v = self.kv(x).view(B, T, 2, self.h, self.dk).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk)
        pad = make_pad_mask(lengths, T)[:, None, None, :]
        scores = scores.masked_fill(pad, float("-inf"))
        return (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(B, T, -1)
