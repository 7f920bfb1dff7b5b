import torch
import torch.nn as nn


class KScaled(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.head_dim = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.head_dim).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.head_dim).transpose(1, 2) * (self.head_dim ** -0.5)
        v = self.v(x).view(B, T, self.h, self.head_dim).transpose(1, 2)
        return torch.softmax(q @ k.transpose(-1, -2), dim=-1) @ v
