# case: b3-48-scale
# modelled-on: pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/65c6688881f14572fe14c240870e82ecee25c62e
# label: buggy
# class: real-bug
# pattern: a GPT-2 style multi-head causal self-attention with an optional KV cache (past keys and values concatenated, the causal buffer sliced from row past_len); the module stores self.scale = d_out ** -0.5 in __init__ and applies it to q @ k^T before the mask and the softmax; the same file's grouped-query attention scales by 1 / sqrt(k.shape[-1])
# why: the scores are divided by self.scale, i.e. multiplied by sqrt(d_out) (the full width, not the head width), so they grow with the model width instead of being brought to unit variance; the line's own comment says the scale is there to handle the large hidden dimension, and the grouped-query attention in the same file multiplies by 1 / sqrt(head_dim); no fix exists (the code is unchanged at the last commit, whose shape-only tests do not compare values)
# source: https://github.com/pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/65c6688881f14572fe14c240870e82ecee25c62e model/attentions.py
import torch
from torch import nn


class CausalSelfAttention(nn.Module):
    """Multi-head causal self-attention; keeps a KV cache for decoding when asked to."""

    def __init__(self, d_in, d_out, max_seq_len, num_heads, dropout=0.1, bias=False):
        super().__init__()
        self.to_q = nn.Linear(d_in, d_out, bias=bias)
        self.to_k = nn.Linear(d_in, d_out, bias=bias)
        self.to_v = nn.Linear(d_in, d_out, bias=bias)
        self.to_out = nn.Linear(d_out, d_out, bias=bias)
        self.scale = d_out ** -0.5
        causal = torch.tril(torch.ones(max_seq_len, max_seq_len))
        self.register_buffer("causal", causal.view(1, 1, max_seq_len, max_seq_len))
        self.dropout = nn.Dropout(dropout)
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads

    def forward(self, x, use_cache=False, kv_cache=None):
        # x: (B, T, d_in); while decoding with a cache T is 1
        B, T, _ = x.shape
        q = self.to_q(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.to_k(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.to_v(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

        new_cache = kv_cache
        past_len = 0
        if use_cache and kv_cache is not None:
            past_k, past_v = kv_cache  # (B, heads, past_len, head_dim)
            past_len = past_k.shape[-2]
            k = torch.cat([past_k, k], dim=-2)
            v = torch.cat([past_v, v], dim=-2)
        if use_cache:
            new_cache = (k, v)

        scores = torch.matmul(q, k.transpose(-2, -1))  # (B, heads, T, past_len + T)
        # scale the scores: GPT uses a large hidden size, without it the gradients become too small
        scores = scores / self.scale  # expect: ATT004

        # rows past_len .. past_len + T of the causal buffer: the new tokens see all cached ones and themselves
        visible = self.causal[:, :, past_len:past_len + T, :past_len + T]
        scores = scores.masked_fill(visible == 0, float("-inf"))
        weights = self.dropout(torch.softmax(scores, dim=-1))

        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(B, T, self.num_heads * self.head_dim)
        return self.to_out(out), new_cache


class GroupedQueryAttention(nn.Module):
    """Causal attention where groups of query heads share one key / value head."""

    def __init__(self, d_model, num_heads, num_kv_groups, max_seq_len):
        super().__init__()
        self.num_heads, self.num_kv_groups = num_heads, num_kv_groups
        self.head_dim = d_model // num_heads
        self.to_q = nn.Linear(d_model, d_model, bias=False)
        self.to_kv = nn.Linear(d_model, 2 * num_kv_groups * self.head_dim, bias=False)
        self.to_out = nn.Linear(d_model, d_model, bias=False)
        self.register_buffer("causal", torch.tril(torch.ones(max_seq_len, max_seq_len)).view(1, 1, max_seq_len, max_seq_len))

    def forward(self, x):
        B, T, C = x.shape
        q = self.to_q(x).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)
        k, v = self.to_kv(x).view(B, T, 2 * self.num_kv_groups, self.head_dim).transpose(1, 2).chunk(2, dim=1)
        repeat = self.num_heads // self.num_kv_groups
        k, v = k.repeat_interleave(repeat, dim=1), v.repeat_interleave(repeat, dim=1)
        att = (q @ k.transpose(-2, -1)) * (1.0 / k.shape[-1] ** 0.5)
        att = att.masked_fill(self.causal[:, :, :T, :T] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        return self.to_out((att @ v).transpose(1, 2).contiguous().view(B, T, C))
