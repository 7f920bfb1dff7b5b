import torch
import torch.nn as nn


class KVCache(nn.Module):
    """Keeps every key and value seen so far, laid out (B, T, n_head, head_size)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("cache_k", None, persistent=False)
        self.register_buffer("cache_v", None, persistent=False)

    def reset_cache(self):
        self.cache_k = None
        self.cache_v = None

    def forward(self, k, v):
        if self.cache_k is None:
            self.cache_k, self.cache_v = k, v
        else:
            self.cache_k = torch.cat([self.cache_k, k], dim=1)
            self.cache_v = torch.cat([self.cache_v, v], dim=1)
        return self.cache_k, self.cache_v
