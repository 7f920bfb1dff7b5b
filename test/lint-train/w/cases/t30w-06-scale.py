# case: t30w-06-scale
# modelled-on: daiyada/LLM-scratch https://github.com/daiyada/LLM-scratch/commit/a7184e1565aa6e134a5bfa3f8b080b96b6376e82
# label: buggy
# class: real-bug
# pattern: a from-scratch GPT attention module (the book-style CausalAttention and MultiHeadAttention, typed out with the author's own names): the multi-head forward views q, k, v as (b, tokens, heads, head_dim), transposes them to (b, heads, tokens, head_dim), fills the upper triangle of a registered triu(ones, 1) buffer with -inf, and divides the scores by keys.shape[-2] ** 0.5 inside the softmax call; the single-head class above it divides by keys.shape[-1] ** 0.5
# why: buggy: after the transpose the keys are (b, heads, tokens, head_dim), so keys.shape[-2] is the number of tokens, not the key width; the scores are divided by sqrt(sequence length), a scale that changes with the input length (1/32 for 1024 tokens instead of 1/8 for head_dim 64), unlike the single-head class and the paper; the author's later commit changes -2 to -1
# source: https://github.com/daiyada/LLM-scratch https://github.com/daiyada/LLM-scratch/commit/a7184e1565aa6e134a5bfa3f8b080b96b6376e82 src/LLM_scratch/attention.py
import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    """Single-head causal self-attention over (batch, tokens, d_in)."""

    def __init__(self, d_in: int, d_out: int, context_length: int, dropout: float, qkv_bias: bool = False) -> None:
        super().__init__()
        self._W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, num_tokens, d_in = x.shape
        keys = self._W_key(x)
        queries = self._W_query(x)
        values = self._W_value(x)

        attn_scores = queries @ keys.transpose(1, 2)
        attn_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** (1 / 2), dim=-1)
        attn_weights = self._dropout(attn_weights)
        return attn_weights @ values


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in: int, d_out: int, context_length: int, dropout: float, num_heads: int,
                 qkv_bias: bool = False) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self._d_out = d_out
        self._num_heads = num_heads
        self._head_dim = d_out // num_heads
        self._W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self._out_proj = nn.Linear(d_out, d_out)  # combines the heads
        self._dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, num_tokens, _ = x.shape
        queries = self._W_query(x).view(b, num_tokens, self._num_heads, self._head_dim)
        keys = self._W_key(x).view(b, num_tokens, self._num_heads, self._head_dim)
        values = self._W_value(x).view(b, num_tokens, self._num_heads, self._head_dim)

        queries = queries.transpose(1, 2)  # (b, heads, tokens, head_dim)
        keys = keys.transpose(1, 2)
        values = values.transpose(1, 2)

        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(
            attn_scores / keys.shape[-2] ** 0.5, dim=-1  # expect: ATT004
        )
        attn_weights = self._dropout(attn_weights)

        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self._d_out)
        return self._out_proj(context_vec)
