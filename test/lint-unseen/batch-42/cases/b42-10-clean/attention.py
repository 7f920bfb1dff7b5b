import math

import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        assert d_model % n_heads == 0
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.lin_q = nn.Linear(d_model, d_model, bias=False)
        self.lin_k = nn.Linear(d_model, d_model, bias=False)
        self.lin_v = nn.Linear(d_model, d_model, bias=False)
        self.lin_o = nn.Linear(d_model, d_model, bias=False)
        self.last_weights = None

    @staticmethod
    def scaled(q, k, v, mask):
        logits = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:
            logits = logits.masked_fill(mask == 0, float("-inf"))
        probs = logits.softmax(dim=-1)
        return probs @ v, probs

    def forward(self, q_in, kv_in, mask=None):
        b, tq, dm = q_in.shape
        tk = kv_in.shape[1]
        q = self.lin_q(q_in).view(b, tq, self.h, self.d_k).transpose(1, 2)
        k = self.lin_k(kv_in).view(b, tk, self.h, self.d_k).transpose(1, 2)
        v = self.lin_v(kv_in).view(b, tk, self.h, self.d_k).transpose(1, 2)
        ctx, self.last_weights = self.scaled(q, k, v, mask)
        return self.lin_o(ctx.transpose(1, 2).reshape(b, tq, dm))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, p_drop=0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads)
        self.cross_attn = MultiHeadAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(3))
        self.drop = nn.Dropout(p_drop)

    def forward(self, y, memory, tgt_mask, src_mask):
        y = self.norms[0](y + self.drop(self.self_attn(y, y, tgt_mask)))
        y = self.norms[1](y + self.drop(self.cross_attn(y, memory, src_mask)))
        return self.norms[2](y + self.drop(self.ff(y)))
