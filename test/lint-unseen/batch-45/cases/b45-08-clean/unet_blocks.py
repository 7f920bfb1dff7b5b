import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F

from attention import ContextCrossAttention, TokenSelfAttention


class SpatialTransformerBlock(nn.Module):
    """Self-attention over the H*W positions, cross-attention to the class embedding, gated feed-forward."""

    def __init__(self, channels: int, heads: int = 8, context_dim: int = 512):
        super().__init__()
        self.pre = nn.Sequential(nn.GroupNorm(32, channels, eps=1e-6), nn.Conv2d(channels, channels, kernel_size=1))
        self.norm_self = nn.LayerNorm(channels)
        self.self_attn = TokenSelfAttention(heads, channels)
        self.norm_cross = nn.LayerNorm(channels)
        self.cross_attn = ContextCrossAttention(heads, channels, context_dim)
        self.norm_ff = nn.LayerNorm(channels)
        self.ff_in = nn.Linear(channels, 8 * channels)
        self.ff_out = nn.Linear(4 * channels, channels)
        self.post = nn.Conv2d(channels, channels, kernel_size=1)

    def forward(self, x: Tensor, class_emb: Tensor) -> Tensor:
        skip = x
        h = self.pre(x)
        b, c, hh, ww = h.shape
        tokens = h.view(b, c, hh * ww).transpose(-1, -2)  # (B, H*W, C)
        tokens = tokens + self.self_attn(self.norm_self(tokens))
        tokens = tokens + self.cross_attn(self.norm_cross(tokens), class_emb.unsqueeze(1))
        val, gate = self.ff_in(self.norm_ff(tokens)).chunk(2, dim=-1)
        tokens = tokens + self.ff_out(val * F.gelu(gate))
        h = tokens.transpose(-1, -2).reshape(b, c, hh, ww)
        return self.post(h) + skip
