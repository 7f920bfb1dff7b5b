# case: b19-03-mask
# modelled-on: 16srivarshitha/Transformer_final https://github.com/16srivarshitha/Transformer_final/commit/36959623ff89890a7baac943a3e7014d7a943ac2
# label: buggy
# class: real-bug
# pattern: an encoder-decoder transformer whose model module builds boolean masks that are True at positions to ignore (padding == pad_id, and triu(..., diagonal=1) for future positions, combined with |) and passes them to a multi-head attention module in another file; the attention module scales by sqrt(d_k), adds missing head axes to 2-D / 3-D masks and fills the scores with -1e9 where mask == 0 before the softmax
# why: buggy: the masks mark ignored positions with True, so mask == 0 selects the real tokens (and the past) and fills those with -1e9, leaving only padding and future positions to attend; the fixing commit fills where mask == True
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
        q_len = query.size(1)
        q = self.w_q(query).view(b, q_len, self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(key).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(value).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / self.scale
        if mask is not None:
            if mask.dim() == 2:  # (batch, seq)
                mask = mask.unsqueeze(1).unsqueeze(2)
            elif mask.dim() == 3:  # (batch, seq, seq)
                mask = mask.unsqueeze(1)
            scores = scores.masked_fill(mask == 0, -1e9)  # expect: ATT002

        weights = self.dropout(F.softmax(scores, dim=-1))
        out = torch.matmul(weights, v)
        out = out.transpose(1, 2).contiguous().view(b, q_len, self.d_model)
        return self.w_o(out)
