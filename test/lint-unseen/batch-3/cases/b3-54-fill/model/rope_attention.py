"""Multi-head self-attention with rotary position embeddings on q and k."""
import torch
from torch import nn

from model.attention import scaled_dot_attention


class Rotary(nn.Module):
    def __init__(self, seq_len: int, head_dim: int, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(seq_len).float(), inv_freq)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, x):  # x: (batch, heads, seq, head_dim)
        t = x.shape[-2]
        x1, x2 = x[..., 0::2], x[..., 1::2]
        cos, sin = self.cos[:t], self.sin[:t]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class RotaryMultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, seq_len: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model, self.num_heads, self.head_dim = d_model, num_heads, d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model, bias=False)
        self.rope = Rotary(seq_len, self.head_dim)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):
        return x.reshape(x.shape[0], x.shape[1], self.num_heads, self.head_dim).permute(0, 2, 1, 3)

    def combine_heads(self, x):
        return x.transpose(2, 1).reshape(x.shape[0], -1, self.d_model)

    def forward(self, x, mask=None):
        q = self.rope(self.split_heads(self.w_q(x)))
        k = self.rope(self.split_heads(self.w_k(x)))
        v = self.split_heads(self.w_v(x))
        out, _ = scaled_dot_attention(q, k, v, mask=mask)
        return self.w_o(self.dropout(self.combine_heads(out)))
