# case: t22o-08-fill
# modelled-on: kaylode/caption-transformer https://github.com/kaylode/caption-transformer/commit/0dd3f334b963c3811c6e90ce2c58d5e8e69c05cf
# label: correct
# class: fixed
# pattern: the fix of t22o-07-fill ("change smallest precision to float16"): the captioner's attention fills masked scores with masked_fill(mask == 0, -1e4); the trainer (trainer.py), unchanged, runs the training step under torch.cuda.amp.autocast(enabled=use_amp)
# why: correct: -1e4 is representable in float16, so the fill works under autocast, and after the softmax exp(-1e4 - max) is 0 in both float16 and float32, so masked keys still get no weight; mask == 0 selects the masked positions of a 1 = keep mask
# looks-like: ATT002, ATT007
# source: https://github.com/kaylode/caption-transformer https://github.com/kaylode/caption-transformer/commit/0dd3f334b963c3811c6e90ce2c58d5e8e69c05cf models/transformer/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, d_k, mask=None, dropout=None):
    """q, k, v: (batch, heads, len, d_k); mask: (batch, len_q or 1, len_k), 0 = masked."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = mask.unsqueeze(1)
        scores = scores.masked_fill(mask == 0, -1e4)
    scores = F.softmax(scores, dim=-1)
    if dropout is not None:
        scores = dropout(scores)
    return torch.matmul(scores, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, heads, d_model, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.d_k = d_model // heads
        self.h = heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        q = self.q_linear(q).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        scores = attention(q, k, v, self.d_k, mask, self.dropout)
        concat = scores.transpose(1, 2).contiguous().view(bs, -1, self.d_model)
        return self.out(concat)
