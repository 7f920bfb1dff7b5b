import torch
import torch.nn as nn
import torch.nn.functional as F


class StaticAttention(nn.Module):
    def __init__(self, d, h, max_len):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("k_cache", torch.zeros(1, h, max_len, d // h))
        self.register_buffer("v_cache", torch.zeros(1, h, max_len, d // h))

    def forward(self, x, cache_position):
        # x: (1, T, d); cache_position: (T,) absolute positions of the new tokens
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        self.k_cache[:, :, cache_position] = k
        self.v_cache[:, :, cache_position] = v
        S = self.k_cache.size(2)
        allowed = torch.arange(S, device=x.device)[None, :] <= cache_position[:, None]  # (T, S)
        return F.scaled_dot_product_attention(q, self.k_cache, self.v_cache, attn_mask=allowed)
