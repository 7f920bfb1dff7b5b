import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    """Preallocated (B, H, max_len, D) keys and values for decoding."""

    def __init__(self, max_batch, max_len, n_heads, head_dim, device=None):
        super().__init__()
        self.register_buffer("k", torch.zeros((max_batch, n_heads, max_len, head_dim), device=device), persistent=False)
        self.register_buffer("v", torch.zeros((max_batch, n_heads, max_len, head_dim), device=device), persistent=False)

    def update(self, start_pos, k_new, v_new):
        b, h, n, d = k_new.shape
        self.k[:b, :, start_pos : start_pos + n, :] = k_new
        self.v[:b, :, start_pos : start_pos + n, :] = v_new
        # every position written so far, the new ones last
        return self.k[:b, :, : start_pos + n, :], self.v[:b, :, : start_pos + n, :]


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, mask=None, start_pos=0, kv_cache=None):
        b, n, _ = x.shape
        # (b, n, dim) -> (b, heads, n, head_dim)
        q = self.wq(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        if kv_cache is not None:
            keys, values = kv_cache.update(start_pos, k, v)
        else:
            keys, values = k, v
        scores = torch.matmul(q, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(q)
        out = torch.matmul(scores, values).transpose(1, 2).contiguous().view(b, n, -1)
        return self.wo(out)
