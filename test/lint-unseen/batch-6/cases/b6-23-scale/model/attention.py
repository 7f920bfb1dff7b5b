# case: b6-23-scale
# modelled-on: meet-minimalist/Attention-is-all-you-need-implementation https://github.com/meet-minimalist/Attention-is-all-you-need-implementation/commit/32742e1a406b8792ac2bf67315f8329999c6a48e
# label: buggy
# class: real-bug
# pattern: an encoder-decoder translation transformer: a projection module splits each of Q, K, V into (batch, seq, heads, d_model // heads); the multi-head module permutes queries to (b, h, s, d_k) and keys straight to (b, h, d_k, s), multiplies q @ k by a scale tensor stored in __init__ as 1 / sqrt(d_model), fills masked_fill(mask == pad_token, -inf) with keep masks built in a utils module ((seq != pad) and its AND with a tril), and softmaxes over the keys
# why: buggy: each head's queries and keys have d_k = d_model // num_heads features (64 of 512 by default; the constructor even takes d_k=64 and never uses it), but the scores are scaled by 1 / sqrt(d_model), sqrt(num_heads) times too small, against the paper's 1 / sqrt(d_k); no fix was found in the repository
# source: https://github.com/meet-minimalist/Attention-is-all-you-need-implementation https://github.com/meet-minimalist/Attention-is-all-you-need-implementation/commit/32742e1a406b8792ac2bf67315f8329999c6a48e model/attention.py
import numpy as np
import torch
import torch.nn as nn


class PrepareForMultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 512, num_heads: int = 8, bias: bool = True):
        super().__init__()
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.linear = nn.Linear(d_model, self.d_k * num_heads, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.linear(x)  # [batch, seq_len, d_k * num_heads]
        return x.view(x.shape[0], x.shape[1], self.num_heads, self.d_k)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model=512, d_k=64, d_v=64, drop_prob=0.1, num_heads=8, bias=True, pad_token=0):
        super().__init__()
        self.num_heads = num_heads
        self.d_k = d_k
        self.d_model = d_model
        self.pad_token = pad_token
        self.query = PrepareForMultiHeadAttention(d_model, num_heads, bias=bias)
        self.key = PrepareForMultiHeadAttention(d_model, num_heads, bias=bias)
        self.value = PrepareForMultiHeadAttention(d_model, num_heads, bias=True)
        self.linear_out = nn.Linear(d_model, d_model)
        self.dropout_layer = nn.Dropout(drop_prob)
        self.softmax = nn.Softmax(dim=-1)
        self.scale = torch.Tensor([1 / np.sqrt(self.d_model)]).to(torch.float32)

    def forward(self, q_vec, k_vec, v_vec, mask):
        # mask: [batch, 1, 1, seq_len] (padding) or [batch, 1, seq_len, seq_len] (decoder self-attention); 1 = keep
        q = self.query(q_vec).permute(0, 2, 1, 3)  # [batch, num_heads, seq_len_q, d_k]
        k = self.key(k_vec).permute(0, 2, 3, 1)  # [batch, num_heads, d_k, seq_len_k]
        v = self.value(v_vec).permute(0, 2, 1, 3)  # [batch, num_heads, seq_len_v, d_v]
        q_kT = q @ k  # [batch, num_heads, seq_len_q, seq_len_k]
        q_kT_scaled = q_kT * self.scale.to(q_kT.device)  # expect: ATT004
        masked = q_kT_scaled.masked_fill(mask == self.pad_token, float("-inf"))
        weights = self.dropout_layer(self.softmax(masked))
        out = (weights @ v).permute(0, 2, 1, 3).contiguous()  # [batch, seq_len_q, num_heads, d_v]
        return self.linear_out(out.view(out.shape[0], out.shape[1], self.d_model))
