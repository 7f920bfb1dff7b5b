import torch
from torch import nn

from attn_fallback import flash_attn_func


class WindowedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, p_drop=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, (n_heads + 2 * n_kv_heads) * self.head_dim, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)
        self.p_drop = p_drop

    def forward(self, x, window_size=(-1, -1)):
        B, T, _ = x.shape
        qkv = self.qkv(x).view(B, T, self.n_heads + 2 * self.n_kv_heads, self.head_dim)
        q, k, v = torch.split(qkv, [self.n_heads, self.n_kv_heads, self.n_kv_heads], dim=-2)
        y = flash_attn_func(q, k, v, dropout_p=self.p_drop if self.training else 0.0, window_size=window_size)
        return self.o_proj(y.contiguous().view(B, T, -1))


class SlidingWindowStack(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, pattern="SSSL", short_window=256, depth=8):
        super().__init__()
        self.layers = nn.ModuleList([WindowedSelfAttention(d_model, n_heads, n_kv_heads) for _ in range(depth)])
        # "S": a short sliding window, "L": full causal context
        self.window_sizes = [(short_window, 0) if pattern[i % len(pattern)] == "S" else (-1, 0) for i in range(depth)]

    def forward(self, x):
        for layer, window in zip(self.layers, self.window_sizes):
            x = x + layer(x, window_size=window)
        return x
