import math
import torch
import torch.nn as nn


class Dim3(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)  # each (B, H, T, dk)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dk)  # (B, H, T, S)
        probs = torch.softmax(scores, dim=3)
        return torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D)
