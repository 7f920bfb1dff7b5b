import torch
import torch.nn.functional as F
from torch import nn


class KVCache(nn.Module):
    def __init__(self, B, H, S, D):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(B, H, S, D))
        self.register_buffer("v_cache", torch.zeros(B, H, S, D))

    def update(self, input_pos, k_val, v_val):
        self.k_cache[:, :, input_pos] = k_val
        self.v_cache[:, :, input_pos] = v_val
        return self.k_cache, self.v_cache


class Attention(nn.Module):
    def __init__(self, d, h, max_seq):
        super().__init__()
        self.h = h
        self.wqkv = nn.Linear(d, 3 * d)
        self.kv_cache = None
        self.register_buffer("causal_mask", torch.tril(torch.ones(max_seq, max_seq, dtype=torch.bool)))

    def forward(self, x, input_pos):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if self.kv_cache is not None:
            k, v = self.kv_cache.update(input_pos, k, v)
        mask = self.causal_mask[None, None, input_pos]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        return y.transpose(1, 2).reshape(B, T, C)
