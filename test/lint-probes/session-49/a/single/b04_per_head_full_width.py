import math
import torch
import torch.nn as nn


class WideHeadAttention(nn.Module):
    """Every head projects to the full model width; the heads are concatenated and projected back."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.W_q = nn.Linear(d_model, n_heads * d_model, bias=False)
        self.W_k = nn.Linear(d_model, n_heads * d_model, bias=False)
        self.W_v = nn.Linear(d_model, n_heads * d_model, bias=False)
        self.W_o = nn.Linear(n_heads * d_model, d_model, bias=False)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.W_q(x).view(B, T, self.n_heads, self.d_model).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.n_heads, self.d_model).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.n_heads, self.d_model).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_model)
        w = scores.softmax(dim=-1)
        out = (w @ v).transpose(1, 2).reshape(B, T, self.n_heads * self.d_model)
        return self.W_o(out)
