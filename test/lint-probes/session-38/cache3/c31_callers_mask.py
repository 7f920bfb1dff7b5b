import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache(nn.Module):
    def __init__(self, b, h, s, d):
        super().__init__()
        self.register_buffer("k", torch.zeros(b, h, 0, d))
        self.register_buffer("v", torch.zeros(b, h, 0, d))

    def update(self, k, v):
        self.k = torch.cat([self.k, k], dim=2)
        self.v = torch.cat([self.v, v], dim=2)
        return self.k, self.v


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.kv_cache = None

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(k, v)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.kv_cache is None and mask is None)
        return y.transpose(1, 2).reshape(B, T, C)


def generate(model, prompt, steps, use_cache=True):
    model.kv_cache = KVCache(1, 4, 0, 16) if use_cache else None
    T = prompt.shape[1]
    # the prompt: a bottom-right causal mask over its own keys (the cache is empty)
    mask = torch.ones(T, T, dtype=torch.bool).tril()
    out = model(prompt, mask=mask)
    for _ in range(steps):
        out = model(out[:, -1:])
    return out


def encode(model, x):
    # no cache here: full causal self-attention
    model.kv_cache = None
    return model(x)
