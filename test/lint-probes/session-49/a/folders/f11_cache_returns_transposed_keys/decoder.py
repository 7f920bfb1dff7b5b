import torch.nn as nn

from cache import TransposedKVCache


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, heads, max_len=512):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.max_len = max_len
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def new_cache(self, batch, device=None):
        return TransposedKVCache(batch, self.heads, self.head_dim, self.max_len, device)

    def forward(self, x, cache):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k_t, v_all = cache.update(k, v)
        scores = (q * self.scale) @ k_t
        probs = scores.softmax(dim=-1)
        return self.out((probs @ v_all).transpose(1, 2).reshape(B, T, D))
