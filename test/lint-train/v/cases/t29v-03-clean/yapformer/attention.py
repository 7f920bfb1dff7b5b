# case: t29v-03-clean
# modelled-on: Aravind-808/yapformer https://github.com/Aravind-808/yapformer/commit/e0cb6749651b70024842cfec433218c3fdea812e
# label: correct
# class: clean
# pattern: a from-scratch decoder-only LM (TinyStories) with grouped-query attention: W_q is Linear(d_model, d_model) but W_k and W_v are Linear(d_model, num_kv_heads * head_dim), so the key projection is a quarter of the query's width (8 query heads, 2 kv heads, d_model 512 in the config); head_dim = d_model // num_q_heads, split_heads recomputes each stream's head width from its own last axis and head count, the kv heads are repeat_interleave'd up to the query heads, and the scores are matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.head_dim) with softmax(dim=-1); the model builds a keep-mask (True = attend) and the attention fills mask == 0 with -1e9
# why: correct: the key projection's width (num_kv_heads * head_dim = 128) is not the per-head width; each kv head is head_dim = 64 wide, the same as each query head, because split_heads divides 128 by 2 kv heads and 512 by 8 query heads; so 1/sqrt(head_dim) is the per-head scale for both sides, and the repeat over the head axis (dim=1 of (B, H, T, d)) does not touch the widths; K.transpose(-2, -1) swaps T and d of the 4-D keys, softmax(dim=-1) runs over the keys
# looks-like: ATT004, ATT005, ATT001
# source: https://github.com/Aravind-808/yapformer https://github.com/Aravind-808/yapformer/commit/e0cb6749651b70024842cfec433218c3fdea812e attention.py, config.py, model.py
import math

import torch
import torch.nn as nn


class GroupedQueryAttention(nn.Module):
    """Eight query heads share two key/value heads (groups of four)."""

    def __init__(self, d_model, num_q_heads, num_kv_heads, max_seq_len):
        super().__init__()
        assert num_q_heads % num_kv_heads == 0, "num_q_heads must be divisible by num_kv_heads"
        self.d_model = d_model
        self.num_q_heads = num_q_heads
        self.num_kv_heads = num_kv_heads
        self.group_size = num_q_heads // num_kv_heads
        self.max_seq_len = max_seq_len
        self.head_dim = d_model // num_q_heads

        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, num_kv_heads * self.head_dim)
        self.W_v = nn.Linear(d_model, num_kv_heads * self.head_dim)
        self.W_o = nn.Linear(d_model, d_model)

    def split_heads(self, x, num_heads):
        b, seq_len, d = x.shape
        head_dim = d // num_heads
        return x.view(b, seq_len, num_heads, head_dim).transpose(1, 2)  # (B, H, T, d_head)

    def combine_heads(self, x):
        b, h, t, d = x.shape
        return x.transpose(1, 2).reshape(b, t, h * d)

    def forward(self, x, mask=None):
        Q = self.split_heads(self.W_q(x), self.num_q_heads)  # (B, Hq, T, d_head)
        K = self.split_heads(self.W_k(x), self.num_kv_heads)  # (B, Hkv, T, d_head)
        V = self.split_heads(self.W_v(x), self.num_kv_heads)

        K = K.repeat_interleave(self.group_size, dim=1)
        V = V.repeat_interleave(self.group_size, dim=1)

        attn_scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            attn_scores = attn_scores.masked_fill(mask == 0, -1e9)
        attn_weights = torch.softmax(attn_scores, dim=-1)
        attn_output = torch.matmul(attn_weights, V)  # (B, Hq, T, d_head)
        return self.W_o(self.combine_heads(attn_output))
