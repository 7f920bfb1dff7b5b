# case: b19-04-mask
# modelled-on: 16srivarshitha/Transformer_final https://github.com/16srivarshitha/Transformer_final/commit/36959623ff89890a7baac943a3e7014d7a943ac2
# label: correct
# class: fixed
# pattern: the same encoder-decoder after the fix: the model module builds boolean masks True at positions to ignore (padding, and future positions via triu(..., diagonal=1), combined with |); the attention module in another file scales by sqrt(d_k) and fills the scores with -1e9 where mask == True before the softmax over the key axis
# why: correct: with ignore-masks, mask == True selects exactly the padding and future keys; the masks already carry their head axes ((batch, 1, 1, src) and (batch, 1, tgt, tgt)); -1e9 before the softmax is the usual fill
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/16srivarshitha/Transformer_final https://github.com/16srivarshitha/Transformer_final/commit/36959623ff89890a7baac943a3e7014d7a943ac2 src/attention.py, src/transformer.py, src/decoder.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.scale = math.sqrt(self.d_k)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        q = self.w_q(query).view(b, query.size(1), self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(key).view(b, key.size(1), self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(value).view(b, value.size(1), self.n_heads, self.d_k).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / self.scale
        if mask is not None:
            scores = scores.masked_fill(mask == True, -1e9)  # noqa: E712

        weights = self.dropout(F.softmax(scores, dim=-1))
        out = torch.matmul(weights, v)
        out = out.transpose(1, 2).contiguous().view(b, query.size(1), self.d_model)
        return self.w_o(out)
