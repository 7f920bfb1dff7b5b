# case: b22-11-scale
# modelled-on: juannpmari/qwen3-from-scratch https://github.com/juannpmari/qwen3-from-scratch/commit/0707a7382c6e428eccb259ac42771ec1f6edfc1f
# label: buggy
# class: real-bug
# pattern: a from-scratch Qwen3-style grouped-query attention (16 query heads of 64 over a 1024 width, two query heads per key/value head) with RoPE from norms.py (the original also RMS-normalises q and k per head, left out here); heads are laid out with 5-D views and permutes, the keys already permuted to (..., head_dim, seq) so the scores are a plain queries @ keys; the causal mask is a registered triu(ones, diagonal=1) buffer filled with -inf; the scale is applied inside the softmax as attn_scores / hidden_dim ** 0.5, hidden_dim being the input's last axis
# why: buggy: the scores are per head, dot products over head_dim (64) features, so the scale must be 1 / sqrt(head_dim); hidden_dim is the model width (1024), which divides the logits by 32 instead of 8 and flattens every attention distribution; the author's next commit, "fix gqa", changes the divisor to self.head_dim ** 0.5 (b22-12-scale)
# source: https://github.com/juannpmari/qwen3-from-scratch https://github.com/juannpmari/qwen3-from-scratch/commit/0707a7382c6e428eccb259ac42771ec1f6edfc1f src/blocks/grouped_query_attention.py
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
        self.rmsnorm = RMSNorm(hidden_dim)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        """x: (batch_size, seq_len, hidden_dim)"""
        batch_size, seq_len, hidden_dim = x.shape
        queries = self.W_Q(x).view(batch_size, seq_len, self.head_dim, self.num_heads)
        keys = self.W_K(x).view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio)
        values = self.W_V(x).view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio)

        queries = self.rope(queries, token_positions=torch.arange(seq_len))
        keys = self.rope(keys, token_positions=torch.arange(seq_len))

        # (batch, kv_heads, group, seq, head_dim) and (batch, kv_heads, 1, head_dim, seq)
        queries = queries.view(batch_size, seq_len, self.head_dim, self.num_heads // self.gka_ratio, self.gka_ratio)
        queries = queries.permute(0, 3, 4, 1, 2)
        keys = keys.unsqueeze(-1).transpose(1, 2)
        keys = keys.permute(0, 3, 4, 1, 2)

        attn_scores = queries @ keys
        mask = self.mask[:seq_len, :seq_len].bool()
        attn_scores = attn_scores.masked_fill(mask, -float("inf"))
        attn_weights = torch.softmax(attn_scores / hidden_dim**0.5, dim=-1)  # expect: ATT004

        values = values.unsqueeze(-1).permute(0, 3, 4, 1, 2)
        context = attn_weights @ values
        context = context.view(batch_size, self.num_heads, seq_len, self.head_dim).permute(0, 2, 1, 3)
        return self.linear_output_layer(context.reshape(batch_size, seq_len, hidden_dim))
