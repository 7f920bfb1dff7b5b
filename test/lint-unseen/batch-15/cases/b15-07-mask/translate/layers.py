# case: b15-07-mask
# modelled-on: reiid00/pytorch-transformer-implementation https://github.com/reiid00/pytorch-transformer-implementation/commit/ee1f087a5bb698b750620615e6b47fe8456eb163
# label: buggy
# class: real-bug
# pattern: a commented Portuguese-English translation transformer; a utils module builds the source mask as a keep mask (src != pad) and the target mask as (tgt != pad) ANDed with torch.triu(ones, diagonal=1).bool(), under comments saying it prevents the decoder from seeing future tokens; the attention module scales by sqrt(d_k) and applies every mask with masked_fill(mask == 0, -1e20) before the softmax; the decoder's self-attention receives the target mask, cross-attention the source mask
# why: buggy: triu(ones, diagonal=1) is True strictly above the diagonal, i.e. on the future; ANDed into a keep mask and applied with masked_fill(mask == 0), it fills the past and the diagonal and leaves only the future visible (the last position sees nothing, a uniform row), the opposite of the comments' intent; the keep convention needs tril (or ~triu(..., 1)); the source mask is right; the repository never fixed it (an earlier version used triu without diagonal=1, also inverted)
# source: https://github.com/reiid00/pytorch-transformer-implementation https://github.com/reiid00/pytorch-transformer-implementation/commit/ee1f087a5bb698b750620615e6b47fe8456eb163 transformer_v2.py
import math

import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, dropout=0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.linear_q = nn.Linear(d_model, d_model)
        self.linear_k = nn.Linear(d_model, d_model)
        self.linear_v = nn.Linear(d_model, d_model)
        self.linear_out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x):
        batch, length, _ = x.shape
        return x.view(batch, length, self.num_heads, self.d_k).transpose(1, 2)

    def attend(self, q, k, v, mask):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-1e20"))  # expect: ATT002
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.matmul(weights, v), weights

    def forward(self, q, k, v, mask=None):
        batch = q.size(0)
        q = self.split_heads(self.linear_q(q))
        k = self.split_heads(self.linear_k(k))
        v = self.split_heads(self.linear_v(v))
        out, weights = self.attend(q, k, v, mask)
        out = out.transpose(1, 2).contiguous().view(batch, -1, self.num_heads * self.d_k)
        return self.linear_out(out), weights


class DecoderLayer(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])

    def forward(self, x, enc_output, src_mask, tgt_mask):
        a, _ = self.self_attn(x, x, x, tgt_mask)
        x = self.norms[0](x + a)
        c, _ = self.cross_attn(x, enc_output, enc_output, src_mask)
        x = self.norms[1](x + c)
        return self.norms[2](x + self.ffn(x))
