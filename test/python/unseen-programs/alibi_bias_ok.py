# label: correct
# why: ALiBi: per-head linear distance bias added to the scaled scores, plus a causal -inf mask, softmax over keys
import math

import torch
import torch.nn as nn


def alibi_slopes(n_heads):
    start = 2 ** (-8 / n_heads)
    return torch.tensor([start ** (i + 1) for i in range(n_heads)])


class AlibiAttention(nn.Module):
    def __init__(self, d=32, n_heads=4):
        super().__init__()
        self.n_heads, self.hd = n_heads, d // n_heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.register_buffer("slopes", alibi_slopes(n_heads))

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.hd).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T)
        distance = (pos[None, :] - pos[:, None]).clamp(max=0).float()  # [T, T], <= 0
        bias = self.slopes[:, None, None] * distance  # [H, T, T]
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.hd) + bias
        scores = scores.masked_fill(future, float("-inf"))
        w = torch.softmax(scores, dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)


if __name__ == "__main__":
    torch.manual_seed(51)
    x = torch.randn(2, 10, 32)
    print(AlibiAttention()(x).shape)
