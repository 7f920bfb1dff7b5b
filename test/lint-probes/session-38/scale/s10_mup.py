import torch
import torch.nn as nn


class MuPAttention(nn.Module):
    """muP: attention logits scaled by 1/d_head instead of 1/sqrt(d_head)."""

    def __init__(self, d_model, n_heads, attn_mult=1.0):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.attn_mult = attn_mult
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        # muP scaling (Yang et al.): 1/d, the width-independent choice
        att = (q @ k.transpose(-2, -1)) * (self.attn_mult / self.d_head)
        att = att.softmax(dim=-1)
        return (att @ v).transpose(1, 2).contiguous().view(B, T, C)
