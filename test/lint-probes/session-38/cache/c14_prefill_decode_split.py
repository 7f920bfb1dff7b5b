import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, b, h, s, d):
        super().__init__()
        self.register_buffer("k", torch.zeros(b, h, s, d))
        self.register_buffer("v", torch.zeros(b, h, s, d))
        self.pos = 0

    def append(self, k, v):
        T = k.shape[2]
        self.k[:, :, self.pos : self.pos + T] = k
        self.v[:, :, self.pos : self.pos + T] = v
        self.pos += T
        return self.k[:, :, : self.pos], self.v[:, :, : self.pos]


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.cache = None

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        start = 0 if self.cache is None else self.cache.pos
        if self.cache is not None:
            k, v = self.cache.append(k, v)
        if start == 0:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v)  # one token per step after prefill
        return y.transpose(1, 2).reshape(B, T, C)
