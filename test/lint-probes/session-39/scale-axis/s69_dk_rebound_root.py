import numpy as np
import torch
import torch.nn as nn


class Rebound(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        d_k = d_model // n_heads
        self.hd = d_k
        d_k = np.sqrt(d_k)
        self.d_k = d_k
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.hd).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / self.d_k
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
