import math
import torch
import torch.nn as nn


class EncoderWithPool(nn.Module):
    """Multi-head self-attention, then a single-head attention pooling over the whole d_model width."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.pool_q = nn.Parameter(torch.randn(1, 1, d_model))
        self.pool_k = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_head), dim=-1)
        x = (a @ v).transpose(1, 2).reshape(B, T, D)
        pk = self.pool_k(x)  # (B, T, d_model)
        s = self.pool_q @ pk.transpose(1, 2) / math.sqrt(self.d_model)  # (B, 1, T): one head over d_model
        w = torch.softmax(s, dim=-1)
        return (w @ x).squeeze(1)
