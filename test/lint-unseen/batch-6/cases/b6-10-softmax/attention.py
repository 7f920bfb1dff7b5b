# case: b6-10-softmax
# modelled-on: TimNiklasWitte/Building-GPT-from-scratch https://github.com/TimNiklasWitte/Building-GPT-from-scratch/commit/071d6d6ed9bd83ac81533cc26a9976f42cb84947
# label: buggy
# class: real-bug
# pattern: a small GPT's causal multi-head attention: fused qkv projection split into (B, T, H, Dh), queries and values permuted to (B, H, T, Dh) and keys straight to (B, H, Dh, T), scores query @ key_T scaled by a sqrt stored in __init__, a tril buffer applied with masked_fill(== 0, -inf), softmax, dropout, merge heads; the decoder block in another file builds it with two heads
# why: buggy: the softmax runs over dim=2 of (B, H, T_q, T_k), the query axis, so each key's column sums to one instead of each query's row (and the causal mask no longer bounds what a query reads), and the scores are divided by sqrt(dim), the model width, instead of sqrt(head_dim); the fix commit changes both to dim=3 and sqrt(head_dim)
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
        self.sqrt_dim = math.sqrt(dim)
        mask = torch.tril(torch.ones(size=(block_size, block_size)))
        self.register_buffer("mask", mask.view(1, 1, block_size, block_size))

    def forward(self, x):
        batch_size, seq_len, dim = x.shape
        query, key, value = self.query_key_value_layer(x).split(dim, dim=2)  # (B, T, dim) each
        query = query.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)  # (B, H, T, Dh)
        key_T = key.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 3, 1)  # (B, H, Dh, T)
        value = value.view(batch_size, seq_len, self.n_heads, self.head_dim).permute(0, 2, 1, 3)  # (B, H, T, Dh)

        aff = query @ key_T  # (B, H, T, T)
        aff = aff / self.sqrt_dim  # expect: ATT004
        aff = aff.masked_fill(self.mask[:, :, :seq_len, :seq_len] == 0, float("-inf"))
        attn = F.softmax(aff, dim=2)  # expect: ATT001
        attn = self.dropout(attn)

        out = attn @ value  # (B, H, T, Dh)
        out = out.permute(0, 2, 1, 3)
        return torch.reshape(out, shape=(batch_size, seq_len, dim))
