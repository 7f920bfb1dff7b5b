import numpy as np
import torch
from torch import nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, d_k: int) -> None:
        super().__init__()
        self.d_k = d_k

    def forward(self, q, k, v, attention_mask):
        # q, k: (batch, n_heads, len, d_k); attention_mask: (batch, n_heads, len_q, len_k), True = blocked
        score = torch.matmul(q, k.transpose(-2, -1)) / np.sqrt(self.d_k)
        score.masked_fill_(attention_mask, -1e10)
        attn = nn.Softmax(dim=-1)(score)
        return torch.matmul(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_k: int, d_v: int) -> None:
        super().__init__()
        self.n_heads, self.d_k, self.d_v = n_heads, d_k, d_v
        self.w_q = nn.Linear(d_model, d_k * n_heads, bias=False)
        self.w_k = nn.Linear(d_model, d_k * n_heads, bias=False)
        self.w_v = nn.Linear(d_model, d_v * n_heads, bias=False)
        self.fc = nn.Linear(n_heads * d_v, d_model, bias=False)
        self.layernorm = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        residual, b = x, x.size(0)
        q = self.w_q(x).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(b, -1, self.n_heads, self.d_v).transpose(1, 2)
        attention_mask = attention_mask.unsqueeze(1).repeat(1, self.n_heads, 1, 1)
        context, attn = ScaledDotProductAttention(self.d_k)(q, k, v, attention_mask)
        context = context.transpose(1, 2).reshape(b, -1, self.n_heads * self.d_v)
        return self.layernorm(self.fc(context) + residual), attn
