import torch
import torch.nn.functional as F
from torch import nn


class StaticAttention(nn.Module):
    def __init__(self, d, h, max_len, B=1):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.register_buffer("k_cache", torch.zeros(B, h, max_len, d // h))
        self.register_buffer("v_cache", torch.zeros(B, h, max_len, d // h))

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        self.k_cache[:B, :, start_pos : start_pos + T] = k
        self.v_cache[:B, :, start_pos : start_pos + T] = v
        keys = self.k_cache[:B, :, : start_pos + T]
        vals = self.v_cache[:B, :, : start_pos + T]
        if start_pos == 0:
            y = F.scaled_dot_product_attention(q, keys, vals, is_causal=True)
        else:
            S = start_pos + T
            mask = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(diagonal=start_pos)
            y = F.scaled_dot_product_attention(q, keys, vals, attn_mask=mask)
        return y.transpose(1, 2).reshape(B, T, C)
