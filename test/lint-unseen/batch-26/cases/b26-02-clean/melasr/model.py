# case: b26-02-clean
# modelled-on: joshggould/Speech-Transformer https://github.com/joshggould/Speech-Transformer/commit/c0fe5b3d7c1eefc72b80199f99d97a32ce64ce66
# label: correct
# class: clean
# pattern: a mel-spectrogram speech transformer: the dataset module builds a (1, 1, T) int frame mask with zeros and a slice set to 1 on the real frames, and the decoder mask as (tokens != pad).unsqueeze(0).int() & causal_mask(n), where causal_mask returns triu(ones, diagonal=1) == 0; the greedy decoder rebuilds causal_mask(len).type_as(frame_mask) at every step; the attention block's static method divides query @ key.transpose(-2, -1) by math.sqrt(d_k) read from the query, masked_fill_(mask == 0, -1e9) in place, then .softmax(dim=-1)
# why: correct: every mask is a keep mask (1 / True = may attend): the frame mask is 1 on real frames, triu(diagonal=1) == 0 is True on and below the diagonal, and the & keeps a pair only if both allow it; mask == 0 therefore fills exactly the padded frames, padded tokens and future tokens; d_k is the per-head width of the (B, H, L, d_k) query; the in-place fill happens before the softmax
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/joshggould/Speech-Transformer https://github.com/joshggould/Speech-Transformer/commit/c0fe5b3d7c1eefc72b80199f99d97a32ce64ce66 model.py
import math

import torch
import torch.nn as nn


class MultiHeadAttentionBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float) -> None:
        super().__init__()
        assert d_model % h == 0
        self.h, self.d_k = h, d_model // h
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)

    @staticmethod
    def attention(query, key, value, mask, dropout: nn.Dropout):
        d_k = query.shape[-1]
        scores = (query @ key.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            scores.masked_fill_(mask == 0, -1e9)
        scores = scores.softmax(dim=-1)
        if dropout is not None:
            scores = dropout(scores)
        return scores @ value, scores

    def forward(self, q, k, v, mask):
        b = q.shape[0]
        query = self.w_q(q).view(b, q.shape[1], self.h, self.d_k).transpose(1, 2)
        key = self.w_k(k).view(b, k.shape[1], self.h, self.d_k).transpose(1, 2)
        value = self.w_v(v).view(b, v.shape[1], self.h, self.d_k).transpose(1, 2)
        x, self.last_scores = MultiHeadAttentionBlock.attention(query, key, value, mask, self.dropout)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.h * self.d_k)
        return self.w_o(x)


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float):
        super().__init__()
        self.self_attn = MultiHeadAttentionBlock(d_model, h, dropout)
        self.cross_attn = MultiHeadAttentionBlock(d_model, h, dropout)
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(2)])

    def forward(self, x, memory, frame_mask, dec_mask):
        y = self.norms[0](x)
        x = x + self.self_attn(y, y, y, dec_mask)
        y = self.norms[1](x)
        return x + self.cross_attn(y, memory, memory, frame_mask)
