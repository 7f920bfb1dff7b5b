import torch
import torch.nn as nn

from s40_prep import prepare_keys


class KeysPrepared(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.nh = n_heads
        self.hd = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.nh, self.hd).transpose(1, 2)
        k = prepare_keys(self.k(x).view(B, T, self.nh, self.hd).transpose(1, 2))  # scaled there
        v = self.v(x).view(B, T, self.nh, self.hd).transpose(1, 2)
        w = (q @ k.transpose(-1, -2)).softmax(-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)
