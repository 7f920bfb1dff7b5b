import torch
from torch import nn


class PatchAttention(nn.Module):
    """The backbone's own attention (DINO-style ViT): returns the output and the weights."""

    def __init__(self, dim, num_heads=12, qkv_bias=True, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        per_head = dim // num_heads
        self.scale = qk_scale or per_head**-0.5
        self.qkv = nn.Linear(dim, 3 * dim, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        b, n, c = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.num_heads, c // self.num_heads).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        weights = self.attn_drop((q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1))
        out = (weights @ v).transpose(1, 2).reshape(b, n, c)
        return self.proj_drop(self.proj(out)), weights
