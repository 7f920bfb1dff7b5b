"""A small encoder-decoder whose attention bugs are only visible with the other files of this folder.

Each finding here points at its evidence in another file (shown as related locations in the Problems view):
- ATT002 at key_padding_mask: the mask comes from data.py's collate, through train.py's DataLoader loop.
- ATT007 at the -1e9 fill: train.py trains this model with 16-bit floats, too narrow for -1e9.
- ATT008 at is_causal: generate.py joins a KV cache to the keys before calling Attend.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=256, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.mha = nn.MultiheadAttention(d_model, n_heads, batch_first=True)

    def forward(self, ids, pad_mask):
        # ids: (B, S); pad_mask: (B, S) from data.collate
        x = self.embed(ids)  # (B, S, D)
        y, _ = self.mha(x, x, x, key_padding_mask=pad_mask)
        return y


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model=256, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, -1).permute(2, 0, 3, 1, 4)  # each (B, H, T, Dh)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, T, T)
        future = torch.triu(torch.ones(t, t, dtype=torch.bool, device=x.device), diagonal=1)
        scores = scores.masked_fill(future, -1e9)
        # Fixed: scores.masked_fill(future, torch.finfo(scores.dtype).min), the minimum of the scores own dtype
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, d)


class Attend(nn.Module):
    def __init__(self, causal=False):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v):
        # q: (B, H, L, Dh); k, v: (B, H, S, Dh), S >= L once a cache is joined
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        # Fixed: is_causal aligns the mask top-left; with a cache (S > L) pass a bottom-right mask:
        #   keep = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)
        #   F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
