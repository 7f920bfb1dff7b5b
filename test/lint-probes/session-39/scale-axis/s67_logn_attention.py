import math
import torch
import torch.nn as nn


class LogNAttention(nn.Module):
    """Qwen-style log-n scaling: queries past the training length are multiplied by log_{L_train}(position)."""

    def __init__(self, dim, heads, train_len=2048):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        logn = [math.log(i, train_len) if i > train_len else 1.0 for i in range(1, 32768)]
        self.register_buffer("logn", torch.tensor(logn)[None, None, :, None])

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        q = q * self.logn[:, :, :T, :]
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
