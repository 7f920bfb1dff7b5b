# case: b22-12-scale
# modelled-on: juannpmari/qwen3-from-scratch https://github.com/juannpmari/qwen3-from-scratch/commit/c8706144a721cb443c73ce52d19153267b2409bb
# label: correct
# class: fixed
# pattern: the fix of b22-11-scale ("fix gqa"): the grouped-query attention (RoPE from norms.py, 5-D head layout, keys pre-permuted to (..., head_dim, seq), causal triu buffer filled with -inf) now divides the scores inside the softmax by self.head_dim ** 0.5; the same commit lets the caller pass token positions
# why: correct: the scores are dot products over head_dim features per head, so 1 / sqrt(head_dim) is the scale; masking with -inf before dividing leaves -inf, and every query keeps its own key; the keys were permuted so that queries @ keys needs no further transpose
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/juannpmari/qwen3-from-scratch https://github.com/juannpmari/qwen3-from-scratch/commit/c8706144a721cb443c73ce52d19153267b2409bb src/blocks/grouped_query_attention.py
import torch
import torch.nn as nn

from .norms import RMSNorm, RoPE


class GQA(nn.Module):
    def __init__(self, context_length, hidden_dim, gka_ratio=2, num_heads=16):
        super().__init__()
        self.W_Q = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.W_K = nn.Linear(hidden_dim, hidden_dim // gka_ratio, bias=False)
        self.W_V = nn.Linear(hidden_dim, hidden_dim // gka_ratio, bias=False)
        self.num_heads = num_heads
        self.head_dim = hidden_dim // num_heads
        self.gka_ratio = gka_ratio
        self.linear_output_layer = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.rope = RoPE(self.head_dim, context_length)
        self.rmsnorm = RMSNorm(self.head_dim)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x, token_positions=None):
        """x: (batch_size, seq_len, hidden_dim); token_positions: optional positions of the tokens"""
        batch_size, seq_len, hidden_dim = x.shape
        queries = self.W_Q(x).view(batch_size, seq_len, self.head_dim, self.num_heads)
        keys = self.W_K(x).view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio)
        values = self.W_V(x).view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio)

        token_positions = torch.arange(seq_len) if token_positions is None else token_positions
        queries = self.rope(queries, token_positions=token_positions)
        keys = self.rope(keys, token_positions=token_positions)

        # (batch, kv_heads, group, seq, head_dim) and (batch, kv_heads, 1, head_dim, seq)
        queries = queries.view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio, self.gka_ratio)
        queries = queries.permute(0, 3, 4, 1, 2)
        keys = keys.unsqueeze(-1).transpose(1, 2)
        keys = keys.permute(0, 3, 4, 1, 2)

        attn_scores = queries @ keys
        mask = self.mask[:seq_len, :seq_len].bool()
        attn_scores = attn_scores.masked_fill(mask, -float("inf"))
        attn_weights = torch.softmax(attn_scores / (self.head_dim**0.5), dim=-1)

        values = values.unsqueeze(-1).permute(0, 3, 4, 1, 2)
        context = attn_weights @ values
        context = context.view(batch_size, self.num_heads, seq_len, self.head_dim).permute(0, 2, 1, 3)
        return self.linear_output_layer(context.reshape(batch_size, seq_len, hidden_dim))
