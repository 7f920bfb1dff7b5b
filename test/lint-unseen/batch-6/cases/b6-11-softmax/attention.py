# case: b6-11-softmax
# modelled-on: TimNiklasWitte/Building-GPT-from-scratch https://github.com/TimNiklasWitte/Building-GPT-from-scratch/commit/7ea50ed11ad81a9dd5a32870cf1c6c019449d804
# label: correct
# class: fixed
# pattern: a small GPT's causal multi-head attention: fused qkv projection split into (B, T, H, Dh), queries and values permuted to (B, H, T, Dh) and keys straight to (B, H, Dh, T), scores query @ key_T scaled by a sqrt stored in __init__, a tril buffer applied with masked_fill(== 0, -inf), softmax, dropout, merge heads; the decoder block in another file builds it with two heads
# why: correct: after the fix the softmax runs over dim=3, the keys of each query's row, and the scores are divided by sqrt(head_dim), the width of each head's queries and keys; the keys are transposed by the permute to (B, H, Dh, T) before the product
# looks-like: ATT001, ATT002, ATT004, ATT005
# source: https://github.com/TimNiklasWitte/Building-GPT-from-scratch https://github.com/TimNiklasWitte/Building-GPT-from-scratch/commit/7ea50ed11ad81a9dd5a32870cf1c6c019449d804 GPT/CausalMultiHeadAttention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalMultiHeadAttention(nn.Module):
    def __init__(self, n_heads, block_size, dim, dropout):
        super().__init__()
        assert dim % n_heads == 0
        self.query_key_value_layer = nn.Linear(dim, 3 * dim)
        self.dropout = nn.Dropout(p=dropout)
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.sqrt_head_dim = math.sqrt(self.head_dim)
        mask = torch.tril(torch.ones(size=(block_size, block_size)))
        self.register_buffer("mask", mask.view(1, 1, block_size, block_size))

    def forward(self, x):
        batch_size, seq_len, dim = x.shape
        query, key, value = self.query_key_value_layer(x).split(dim, dim=2)  # (B, T, dim) each
        query = query.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)  # (B, H, T, Dh)
        key_T = key.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 3, 1)  # (B, H, Dh, T)
        value = value.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)  # (B, H, T, Dh)

        aff = query @ key_T  # (B, H, T, T)
        aff = aff / self.sqrt_head_dim
        aff = aff.masked_fill(self.mask[:, :, :seq_len, :seq_len] == 0, float("-inf"))
        attn = F.softmax(aff, dim=3)
        attn = self.dropout(attn)

        out = attn @ value  # (B, H, T, Dh)
        out = out.permute(0, 2, 1, 3)
        return torch.reshape(out, shape=(batch_size, seq_len, dim))
