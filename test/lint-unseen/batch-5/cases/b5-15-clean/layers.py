import math

import torch
from torch import nn


class DotProductAttention(nn.Module):
    def forward(self, q, k, v, mask=None):
        d = k.shape[-1]
        # (B, h, S_q, d) @ (B, h, d, S_k) -> (B, h, S_q, S_k)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        if mask is not None:
            # mask: 1 = may attend, broadcast to the scores
            scores = scores.masked_fill(mask == 0, float("-inf"))
        attn = torch.nn.functional.softmax(scores, dim=-1)
        return attn @ v


class CachedMultiHead(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        self.attend = DotProductAttention()

    def forward(self, x, mask=None, cache=None):
        q, k, v = self.qkv(x).chunk(3, -1)
        if cache is not None:
            # (B, S_past, D) + (B, S, D) on the position axis
            k = torch.cat((cache[0], k), dim=1)
            v = torch.cat((cache[1], v), dim=1)
        bq, sq, dq = q.shape
        bk, sk, _ = k.shape
        qh = q.view(bq, sq, self.n_heads, self.d_head).transpose(1, 2)
        kh = k.view(bk, sk, self.n_heads, self.d_head).transpose(1, 2)
        vh = v.view(bk, sk, self.n_heads, self.d_head).transpose(1, 2)
        ctx = self.attend(qh, kh, vh, mask)
        ctx = ctx.transpose(2, 1).reshape(bq, sq, dq)
        return self.out(ctx), k, v


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, max_len=1024):
        super().__init__()
        self.norm1 = nn.RMSNorm(d_model)
        self.norm2 = nn.RMSNorm(d_model)
        self.attn = CachedMultiHead(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))
        self.register_buffer("mask", torch.tril(torch.ones(max_len, max_len)))

    def forward(self, x, cache=None):
        B, S, D = x.shape
        y, k, v = self.attn(self.norm1(x), self.mask[:S, :S], cache)
        x = x + y
        return x + self.ff(self.norm2(x)), k, v
