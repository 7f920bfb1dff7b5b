"""A pre-norm decoder block (RMSNorm, rotary self-attention, SwiGLU)."""
import torch
from torch import nn
import torch.nn.functional as F

from model.rope_attention import RotaryMultiHeadAttention


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float, seq_len: int, expansion: int = 4):
        super().__init__()
        self.attention = RotaryMultiHeadAttention(d_model, seq_len, n_heads, dropout)
        self.norm_1, self.norm_2 = RMSNorm(d_model), RMSNorm(d_model)
        self.w_gate = nn.Linear(d_model, expansion * d_model, bias=False)
        self.w_up = nn.Linear(d_model, expansion * d_model, bias=False)
        self.w_down = nn.Linear(expansion * d_model, d_model, bias=False)
        # boolean causal mask: True = visible (past and present), False = hidden (future); the attention
        # must therefore apply it as scores.masked_fill(mask == 0, float('-inf'))
        self.register_buffer("causal_mask", torch.tril(torch.ones(seq_len, seq_len)) == 1)

    def forward(self, x):
        t = x.shape[1]
        h = x + self.attention(self.norm_1(x), mask=self.causal_mask[:t, :t])
        n = self.norm_2(h)
        return h + self.w_down(F.silu(self.w_gate(n)) * self.w_up(n))
