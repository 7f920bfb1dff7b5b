import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d, axis=-1):
        super().__init__()
        self.axis = axis
        self.softmax = nn.Softmax(dim=self.axis)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)

    def forward(self, x, y):
        # x: (B, T, d), y: (B, S, d)
        s = self.q(x) @ self.k(y).transpose(1, 2) / math.sqrt(x.size(-1))  # (B, T, S)
        return self.softmax(s) @ y
