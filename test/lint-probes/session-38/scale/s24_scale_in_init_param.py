import math
import torch
import torch.nn as nn


class LearnedQ(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.w_q = nn.Parameter(torch.empty(d_model, d_model))
        self.w_k = nn.Parameter(torch.empty(d_model, d_model))
        self.w_v = nn.Parameter(torch.empty(d_model, d_model))
        for w in (self.w_q, self.w_k, self.w_v):
            nn.init.normal_(w, std=1 / math.sqrt(d_model))

    def forward(self, x):
        B, T, D = x.shape
        q = (x @ self.w_q).view(B, T, self.h, self.dk).transpose(1, 2)
        k = (x @ self.w_k).view(B, T, self.h, self.dk).transpose(1, 2)
        v = (x @ self.w_v).view(B, T, self.h, self.dk).transpose(1, 2)
        a = (q @ k.transpose(-1, -2)) / math.sqrt(self.dk)
        return torch.softmax(a, dim=-1) @ v
