import functools
import math
import torch
import torch.nn as nn


def attention(q, k, v, scale):
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
    return torch.einsum("bhqk,bhkd->bhqd", s.softmax(-1), v)


class PartialAttn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        head_dim = dim // heads
        self.attn_fn = functools.partial(attention, scale=1 / math.sqrt(head_dim))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        return self.attn_fn(q, k, v)
