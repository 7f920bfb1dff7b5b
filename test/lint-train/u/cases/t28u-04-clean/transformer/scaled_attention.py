# case: t28u-04-clean
# modelled-on: PshySimon/Sentiment-Analysis https://github.com/PshySimon/Sentiment-Analysis/commit/8aff48bcf4496b5fdecf5812730496e81048399d
# label: correct
# class: clean
# pattern: a sentiment classifier's Transformer split into one module per class: the multi-head module projects with Linear(d_model, d_model), views (B, L, n_heads, d_heads) and permutes to (B, n_heads, L, d_heads), then hands Q, K, V to a ScaledDotProductAttention module of another file, which reads d_model = Q.shape[-1], transposes the keys with K.permute(0, 1, 3, 2), divides the scores by math.sqrt(d_model) and softmaxes over dim=-1; the config object holds d_model = 512 and n_heads = 8
# why: correct: the local named d_model is read off the last axis of the per-head queries, so it is d_heads = 64, the width the product sums over, and the scale is 1/sqrt(64) despite the name; permute(0, 1, 3, 2) swaps only the last two axes of (B, heads, L, d_heads), so K^T is (B, heads, d_heads, L) and the scores are (B, heads, L, L) with the keys last
# looks-like: ATT004, ATT005
# source: https://github.com/PshySimon/Sentiment-Analysis https://github.com/PshySimon/Sentiment-Analysis/commit/8aff48bcf4496b5fdecf5812730496e81048399d Transformer/ScaledDotProductAttention.py
import math

import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, Q, K, V):
        # Q, K, V: [batch_size, n_heads, len, d_heads]
        d_model = Q.shape[-1]
        scores = torch.matmul(Q, K.permute(0, 1, 3, 2)) / math.sqrt(d_model)
        # scores: [batch_size, n_heads, query_len, key_len]
        attention = torch.nn.functional.softmax(scores, dim=-1)
        attention = self.dropout(attention)
        return torch.matmul(attention, V)
