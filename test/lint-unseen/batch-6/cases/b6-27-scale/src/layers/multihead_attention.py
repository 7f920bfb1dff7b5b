# case: b6-27-scale
# modelled-on: vivek12345/gpt2-from-scratch https://github.com/vivek12345/gpt2-from-scratch/commit/f04d123e259cff35a5a4c8fd394d7629647fc2fd
# label: buggy
# class: real-bug
# pattern: a GPT-2 re-implementation that loads OpenAI's pretrained GPT-2 weights: the multi-head attention splits queries, keys and values into (B, heads, T, head_dim), computes queries @ keys.transpose(2, 3), fills a triu(ones, 1) buffer with -inf in place, and softmaxes; the transformer block in another module uses it and a weight loader assigns GPT-2's c_attn weights to its projections
# why: buggy: the scores are never divided by sqrt(head_dim), although GPT-2 (and the book code this follows, which divides by keys.shape[-1] ** 0.5) computes softmax(QK^T / sqrt(d_k)); with head_dim 64 the logits are 8 times too large, so the loaded pretrained weights produce near one-hot attention and wrong text; no fix was found
# source: https://github.com/vivek12345/gpt2-from-scratch https://github.com/vivek12345/gpt2-from-scratch/commit/f04d123e259cff35a5a4c8fd394d7629647fc2fd src/layers/multihead_attention.py
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention with causal masking."""

    def __init__(self, emb_dim, context_length, qkv_bias, dropout, num_heads):
        super().__init__()
        assert emb_dim % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = emb_dim
        self.num_heads = num_heads
        self.head_dim = emb_dim // num_heads
        self.W_Query = nn.Linear(emb_dim, emb_dim, bias=qkv_bias)
        self.W_Key = nn.Linear(emb_dim, emb_dim, bias=qkv_bias)
        self.W_Value = nn.Linear(emb_dim, emb_dim, bias=qkv_bias)
        self.dropout = nn.Dropout(dropout)
        self.out_project = nn.Linear(emb_dim, emb_dim)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        batch_size, context_length, emb_dim = x.shape
        queries = self.W_Query(x).view(batch_size, context_length, self.num_heads, self.head_dim).transpose(1, 2)
        keys = self.W_Key(x).view(batch_size, context_length, self.num_heads, self.head_dim).transpose(1, 2)
        values = self.W_Value(x).view(batch_size, context_length, self.num_heads, self.head_dim).transpose(1, 2)

        attention_scores = queries @ keys.transpose(2, 3)  # (B, heads, T, T)
        attention_scores.masked_fill_(self.mask.bool()[:context_length, :context_length], -torch.inf)
        attention_weights = torch.softmax(attention_scores, dim=-1)  # expect: ATT003
        attention_weights = self.dropout(attention_weights)

        context_vectors = (attention_weights @ values).transpose(1, 2)
        context_vectors = context_vectors.contiguous().view(batch_size, context_length, self.d_out)
        return self.out_project(context_vectors)
