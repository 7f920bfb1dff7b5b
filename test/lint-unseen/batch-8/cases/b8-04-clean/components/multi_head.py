# case: b8-04-clean
# modelled-on: henok3878/transformer-from-scratch https://github.com/henok3878/transformer-from-scratch/commit/40a37d6d168dd16d963a034521552d1fd6e2a6dd
# label: correct
# class: clean
# pattern: an encoder-decoder translation transformer whose multi-head attention fills masked_fill(mask == 0, -inf); the masks are keep masks built in the training script's batch function ((ids != pad) for the source, (ids != pad) & tril for the target) and, at inference, a tril keep mask in a decoding module
# why: correct: every mask is a keep mask (True = attend) and the attention fills where it is 0; the target mask keeps key 0 (the SOS token, never padding) in every row, so the -inf fill never blanks a whole row; the source keep mask broadcasts over the query axis as (B, 1, 1, S)
# looks-like: ATT002, ATT007
# source: https://github.com/henok3878/transformer-from-scratch https://github.com/henok3878/transformer-from-scratch/commit/40a37d6d168dd16d963a034521552d1fd6e2a6dd src/transformer/components/multi_head.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, kv: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """x: (B, T_x, d_model); kv: (B, T_kv, d_model); mask: keep mask broadcastable to (B, 1, T_x, T_kv)."""
        B, Tx, _ = x.shape
        Tkv = kv.size(1)
        q = self.q_proj(x).view(B, Tx, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(kv).view(B, Tkv, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(kv).view(B, Tkv, self.num_heads, self.head_dim).transpose(1, 2)

        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, H, T_x, T_kv)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        attn = self.dropout(F.softmax(scores, dim=-1))
        ctx = (attn @ v).transpose(1, 2).contiguous().view(B, Tx, -1)
        return self.out_proj(ctx)


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, memory, target_mask=None, memory_mask=None):
        x = self.n1(x + self.self_attn(x, x, mask=target_mask))
        x = self.n2(x + self.cross_attn(x, memory, mask=memory_mask))
        return self.n3(x + self.ff(x))
