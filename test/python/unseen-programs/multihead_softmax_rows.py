# label: buggy
# why: multi-head scores are [B, H, T, S]; softmax(dim=-2) normalises over queries, not keys
import math

import torch
from torch import nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        # [B, T, C] -> [B, H, T, d_head]
        q = q.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        att = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        att = att.softmax(dim=-2)  # expect: ATT001
        y = att @ v  # [B, H, T, d_head]
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y)


def main():
    torch.manual_seed(1)
    layer = MultiHeadSelfAttention()
    layer.eval()
    x = torch.randn(2, 12, 64)
    with torch.no_grad():
        y = layer(x)
    print(y.shape, float(y.abs().mean()))


if __name__ == "__main__":
    main()
