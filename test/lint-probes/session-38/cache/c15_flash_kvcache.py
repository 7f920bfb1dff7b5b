import torch
import torch.nn as nn
from flash_attn import flash_attn_with_kvcache


class FlashDecode(nn.Module):
    def __init__(self, dim, heads, max_seq, batch):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.wqkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("k_cache", torch.zeros(batch, max_seq, heads, self.hd))
        self.register_buffer("v_cache", torch.zeros(batch, max_seq, heads, self.hd))

    def forward(self, x, cache_seqlens):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.heads, self.hd).unbind(2)
        out = flash_attn_with_kvcache(q, self.k_cache, self.v_cache, k=k, v=v,
                                      cache_seqlens=cache_seqlens, causal=True)
        return out.reshape(B, T, C)
