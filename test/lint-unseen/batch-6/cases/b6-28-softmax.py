# case: b6-28-softmax
# modelled-on: vivek12345/gpt2-from-scratch https://github.com/vivek12345/gpt2-from-scratch/commit/f04d123e259cff35a5a4c8fd394d7629647fc2fd
# label: buggy
# class: real-bug
# pattern: the single-head causal self-attention layer of a GPT-2 learning repository (the step before its multi-head module): queries @ keys.transpose(1, 2) on (B, T, d) tensors, an in-place masked_fill_ with a triu(ones, 1) buffer and -inf, softmax, dropout, weights @ values; the module's own docstring walks through the row-normalised weights (each query's row sums to 1)
# why: buggy: the softmax runs over dim=1 of the (B, T_q, T_k) scores, the query axis, so each key's column sums to one instead of each query's row that the docstring shows (and the first query then mixes all rows' values), and the scores are not divided by sqrt(d_out) as the book code it follows does; no fix was found
# source: https://github.com/vivek12345/gpt2-from-scratch https://github.com/vivek12345/gpt2-from-scratch/commit/f04d123e259cff35a5a4c8fd394d7629647fc2fd src/layers/causal_attention.py
"""Causal self-attention mechanism"""
import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    """Causal self-attention with masking to prevent attending to future tokens.

    Step 4 (after softmax), each row sums to one:
                T0    T1    T2    T3
    Token_0     1.00  0.00  0.00  0.00
    Token_1     0.58  0.42  0.00  0.00
    Token_2     0.28  0.53  0.19  0.00
    Token_3     0.20  0.33  0.36  0.11
    """

    def __init__(self, din, dout, dropout, context_length, qkv_bias=False):
        super().__init__()
        self.W_Query = nn.Linear(din, dout, bias=qkv_bias)
        self.W_Key = nn.Linear(din, dout, bias=qkv_bias)
        self.W_Value = nn.Linear(din, dout, bias=qkv_bias)
        self.dropout_layer = nn.Dropout(dropout)
        # upper triangle above the diagonal = 1 (masked), 0 = allowed
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        batch_size, context_length, emb_dim = x.shape
        queries = self.W_Query(x)
        keys = self.W_Key(x)
        values = self.W_Value(x)
        attention_scores = queries @ keys.transpose(1, 2)  # (B, T, T)
        attention_scores.masked_fill_(self.mask.bool()[:context_length, :context_length], -torch.inf)
        attention_weights = torch.softmax(attention_scores, dim=1)  # expect: ATT001, ATT003
        attention_weights = self.dropout_layer(attention_weights)
        return attention_weights @ values
