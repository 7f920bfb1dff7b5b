import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads, dropout=0.1):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dropout = nn.Dropout(dropout)

    def split(self, x):
        b, n, _ = x.shape
        return x.view(b, n, self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        q = self.split(self.query(hidden_states))
        k = self.split(self.key(hidden_states))
        v = self.split(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        scores = scores + attention_mask
        probs = self.dropout(nn.Softmax(dim=-1)(scores))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size(0), ctx.size(1), -1)


class Bert(nn.Module):
    def __init__(self, vocab, hidden=768, heads=12, layers=12):
        super().__init__()
        self.word = nn.Embedding(vocab, hidden)
        self.segment = nn.Embedding(2, hidden)
        self.layers = nn.ModuleList([SelfAttention(hidden, heads) for _ in range(layers)])

    def forward(self, input_ids, token_type_ids=None, attention_mask=None):
        keep = (input_ids > 0).float().unsqueeze(1).unsqueeze(2)  # 1 = real token
        if attention_mask is not None:
            # a caller's keep mask is combined with the padding keep mask
            keep = attention_mask * keep
        extended = (1.0 - keep) * -10000.0
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        h = self.word(input_ids) + self.segment(token_type_ids)
        for layer in self.layers:
            h = h + layer(h, extended)
        return h
