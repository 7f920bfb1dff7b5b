import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        w = (q @ k.transpose(-2, -1) / math.sqrt(C // self.heads)).softmax(-1)
        # how much more than uniform each key is attended to (a diagnostic returned next to the output)
        ratio = w * N
        return (w @ v).transpose(1, 2).reshape(B, N, C), ratio
