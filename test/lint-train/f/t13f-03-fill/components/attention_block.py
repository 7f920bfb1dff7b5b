# case: t13f-03-fill
# modelled-on: 0xd1rac/attention-is-all-you-need https://github.com/0xd1rac/attention-is-all-you-need/commit/4c60fd761c991073756d9bbca809988e79b69e0c
# label: buggy
# class: real-bug
# pattern: a translation transformer whose dataset returns keep masks (int 1 = a real, earlier-or-same token; the decoder's is the pad mask ANDed with triu(ones, 1) == 0), and whose multi-head block's static self_attention scales q @ k^T by sqrt(d_k) and then, under the comment "Apply attention mask if provided", calls attention_scores.masked_fill(attn_mask == 0, float('-inf')) as a statement of its own before the softmax
# why: buggy: Tensor.masked_fill is out of place and its result is discarded, so nothing is masked: padding keys get weight in the encoder and cross-attention and the decoder's self-attention sees future target tokens, contrary to the code's own comment and to the masks the dataset builds for it; the repository never fixed it (the in-place masked_fill_ or an assignment was intended); the mask polarity (keep mask, == 0 filled) is right
# source: https://github.com/0xd1rac/attention-is-all-you-need https://github.com/0xd1rac/attention-is-all-you-need/commit/4c60fd761c991073756d9bbca809988e79b69e0c src/transformer_components/MultiHeadAttentionBlock.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttentionBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float) -> None:
        super().__init__()
        assert d_model % h == 0, "d_model must be divisible by h"
        self.d_model, self.h, self.d_k = d_model, h, d_model // h
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.W_O = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    @staticmethod
    def self_attention(q, k, v, dropout: nn.Dropout, attn_mask=None):
        d_k = q.shape[-1]
        attention_scores = (q @ k.transpose(-2, -1)) / math.sqrt(d_k)
        # Apply attention mask if provided
        if attn_mask is not None:
            attention_scores.masked_fill(attn_mask == 0, float("-inf"))  # expect: ATT007
        attention_scores = F.softmax(attention_scores, dim=-1)
        if dropout is not None:
            attention_scores = dropout(attention_scores)
        return attention_scores @ v, attention_scores

    def forward(self, Q, K, V, attn_mask=None):
        query = self.W_Q(Q).view(Q.shape[0], Q.shape[1], self.h, self.d_k).transpose(1, 2)
        key = self.W_K(K).view(K.shape[0], K.shape[1], self.h, self.d_k).transpose(1, 2)
        value = self.W_V(V).view(V.shape[0], V.shape[1], self.h, self.d_k).transpose(1, 2)
        x, self.attention_scores = MultiHeadAttentionBlock.self_attention(query, key, value, self.dropout, attn_mask)
        x = x.transpose(1, 2).contiguous().view(x.shape[0], -1, self.h * self.d_k)
        return self.W_O(x)
