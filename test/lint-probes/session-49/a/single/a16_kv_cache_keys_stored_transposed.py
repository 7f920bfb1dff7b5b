import torch
import torch.nn as nn


class DecoderAttention(nn.Module):
    """Keys are cached as (B, H, D, S) so that the score product needs no transpose per step."""

    def __init__(self, dim, n_heads, max_len=1024, max_batch=4):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.scale = self.head_dim ** -0.5
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.register_buffer("k_cache_t", torch.zeros(max_batch, n_heads, self.head_dim, max_len), persistent=False)
        self.register_buffer("v_cache", torch.zeros(max_batch, n_heads, max_len, self.head_dim), persistent=False)

    def forward(self, x, start_pos):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        q = q.transpose(1, 2)
        self.k_cache_t[:B, :, :, start_pos : start_pos + T] = k.permute(0, 2, 3, 1)
        self.v_cache[:B, :, start_pos : start_pos + T] = v.transpose(1, 2)
        keys_t = self.k_cache_t[:B, :, :, : start_pos + T]
        values = self.v_cache[:B, :, : start_pos + T]
        scores = (q @ keys_t) * self.scale
        if T > 1:
            mask = torch.full((T, start_pos + T), float("-inf"), device=x.device).triu(start_pos + 1)
            scores = scores + mask
        probs = scores.softmax(dim=-1)
        out = (probs @ values).transpose(1, 2).reshape(B, T, C)
        return self.wo(out)
