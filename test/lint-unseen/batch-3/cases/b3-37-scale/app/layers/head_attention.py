# case: b3-37-scale
# modelled-on: TriNguyen1208/transformer-from-scratch https://github.com/TriNguyen1208/transformer-from-scratch/commit/9ad6d37a6962f563440b416eb339b807210afe01
# label: buggy
# class: real-bug
# pattern: a small decoder-only transformer split into modules: the head size is a constant computed in a config module (EMBED_DIM // NUM_HEAD), one Head module per attention head computes q @ k^T and applies a scale written with that constant, a registered tril causal mask and a padding mask from the model (True where both positions are padding) are filled with -inf, softmax over the last axis
# why: the scores are divided by HEAD_SIZE ** -0.5, i.e. multiplied by sqrt(head_size) (x8 here) instead of divided by it; the comment calls the line the score formula, and the formula the head implements (scaled dot-product attention, softmax(QK^T / sqrt(d_k))) divides by sqrt(d_k); no fix exists in the repository (see the README)
# source: https://github.com/TriNguyen1208/transformer-from-scratch https://github.com/TriNguyen1208/transformer-from-scratch/commit/9ad6d37a6962f563440b416eb339b807210afe01 app/layers/head_attention.py
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

from app.config.constant import DROP_OUT, EMBED_DIM, HEAD_SIZE, MAX_SEQ_LEN


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.W_query = nn.Linear(EMBED_DIM, HEAD_SIZE)
        self.W_key = nn.Linear(EMBED_DIM, HEAD_SIZE)
        self.W_value = nn.Linear(EMBED_DIM, HEAD_SIZE)
        self.register_buffer("tril", torch.tril(torch.ones(MAX_SEQ_LEN, MAX_SEQ_LEN)))
        self.dropout = nn.Dropout(DROP_OUT)

    def forward(self, input, mask):
        k = self.W_key(input)  # (batch_size, seq_len, head_size)
        q = self.W_query(input)  # (batch_size, seq_len, head_size)
        v = self.W_value(input)  # (batch_size, seq_len, head_size)

        # score formula
        score = q @ k.transpose(-2, -1) / (HEAD_SIZE ** -0.5)  # expect: ATT004

        # where the causal mask is 0, set the score to -inf
        seq_len = input.size(1)
        score = score.masked_fill(self.tril[:seq_len, :seq_len] == 0, -math.inf)
        if mask is not None:
            score = score.masked_fill(mask == True, -math.inf)  # noqa: E712

        score = F.softmax(score, dim=-1)
        score = self.dropout(score)
        return score @ v  # (batch_size, seq_len, head_size)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_head):
        super().__init__()
        self.heads = nn.ModuleList([Head() for _ in range(num_head)])
        self.proj = nn.Linear(HEAD_SIZE * num_head, EMBED_DIM)
        self.dropout = nn.Dropout(DROP_OUT)

    def forward(self, input, mask=None):
        out = torch.cat([h(input, mask) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))
