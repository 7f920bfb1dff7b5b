import torch
import torch.nn as nn
from flash_attn import flash_attn_func


class FlashAttn(nn.Module):
    def __init__(self, d_model, n_heads, softmax_scale=None):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.softmax_scale = softmax_scale or self.head_dim ** -0.5
        self.Wqkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        b, s, _ = x.shape
        qkv = self.Wqkv(x).view(b, s, 3, self.n_heads, self.head_dim)
        q, k, v = qkv.unbind(dim=2)  # (b, s, h, d)
        out = flash_attn_func(q, k, v, softmax_scale=self.softmax_scale, causal=True)
        return out.reshape(b, s, -1)
