import torch
import torch.nn as nn


class MixedAttention(nn.Module):
    """Blend the attention of this layer with the previous layer's (residual attention)."""

    def __init__(self, dim, heads, alpha=0.5):
        super().__init__()
        self.heads = heads
        self.alpha = alpha
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, prev_attn):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5).softmax(-1)
        attn = attn * self.alpha + prev_attn * (1 - self.alpha)
        return (attn @ v).transpose(1, 2).reshape(B, N, C), attn
