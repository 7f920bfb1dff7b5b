import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowSDPA(nn.Module):
    """One head per window, windows in the kernel's head slot: (B, n_windows, W, C)."""

    def __init__(self, channels, window):
        super().__init__()
        self.channels = channels
        self.window = window
        self.qkv = nn.Linear(channels, 3 * channels)

    def forward(self, x):
        B, N, C = x.shape
        nw = N // self.window
        q, k, v = self.qkv(x).view(B, nw, self.window, 3 * C).chunk(3, dim=-1)
        y = F.scaled_dot_product_attention(q, k, v, scale=self.channels ** -0.5)
        return y.reshape(B, N, C)


class Heads(nn.Module):
    def __init__(self, channels, heads):
        super().__init__()
        self.dh = channels // heads
