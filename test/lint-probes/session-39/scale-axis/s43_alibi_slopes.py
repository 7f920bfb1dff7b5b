import math
import torch
import torch.nn as nn


def alibi_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start * start ** i for i in range(n)])


class ALiBi(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("slopes", alibi_slopes(heads).view(1, heads, 1, 1))

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T, device=x.device)
        dist = (pos[None, :] - pos[:, None]).abs().float()  # (T, T)
        s = q @ k.transpose(-1, -2) * self.dh ** -0.5 - self.slopes * dist
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        s = s.masked_fill(~causal, float("-inf"))
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
