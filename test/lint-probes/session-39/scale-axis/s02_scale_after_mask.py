import math
import torch
import torch.nn as nn


class MaskThenScale(nn.Module):
    """Mask the raw scores with a large negative number, scale afterwards (still before the softmax)."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.to_q = nn.Linear(dim, dim)
        self.to_kv = nn.Linear(dim, 2 * dim)

    def forward(self, x, pad):  # pad: (B, S) bool, True = padding
        B, T, D = x.shape
        q = self.to_q(x).view(B, T, self.heads, self.dh).transpose(1, 2)  # (B, H, T, dh)
        k, v = self.to_kv(x).view(B, T, 2, self.heads, self.dh).unbind(2)
        k, v = k.transpose(1, 2), v.transpose(1, 2)
        s = torch.matmul(q, k.transpose(2, 3))  # (B, H, T, T)
        s = s.masked_fill(pad[:, None, None, :], -1e4)
        s = s / math.sqrt(self.dh)
        p = s.softmax(dim=-1)
        return (p @ v).transpose(1, 2).reshape(B, T, D)
