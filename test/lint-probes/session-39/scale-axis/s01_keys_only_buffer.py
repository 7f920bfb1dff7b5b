import math
import torch
import torch.nn as nn


class KeyScaled(nn.Module):
    """The 1/sqrt(d) is applied once, to the keys, from a buffer."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.register_buffer("k_scale", torch.tensor(1.0 / math.sqrt(self.d_head)))
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        # (B, T, 3, H, Dh) -> three (B, H, T, Dh)
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        k = k * self.k_scale
        w = torch.softmax(q @ k.transpose(-2, -1), dim=-1)  # (B, H, T, T)
        y = (w @ v).transpose(1, 2).reshape(B, T, C)
        return self.out(y)
