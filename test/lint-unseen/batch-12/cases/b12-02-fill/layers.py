# case: b12-02-fill
# modelled-on: pushkar1713/p-transformer https://github.com/pushkar1713/p-transformer/commit/f4864a62eba30aab2d5f9725ab0e748cf6e7d4ba
# label: buggy
# class: real-bug
# pattern: a translation transformer written from a video tutorial: the dataset builds keep masks (1 = real token; the decoder's ANDed with a lower-triangular keep mask) and the multi-head module's static attention function fills masked_fill(mask == 0, -1e9) into the scores, but as a statement of its own, so the filled copy is thrown away and the unmasked scores are softmaxed
# why: buggy: torch.Tensor.masked_fill returns a new tensor; its result is discarded, so padding and future positions keep their scores and get attention weight (the decoder can read the token it must predict); the author's next commit ("it's working finally") assigns it, attention_score = attention_score.masked_fill_(mask == 0, -1e9); the mask polarity is right (keep masks, == 0 hidden)
# source: https://github.com/pushkar1713/p-transformer https://github.com/pushkar1713/p-transformer/commit/e4c157bda15429e0d0752853e725ca54d144f7f3 model.py
import math

import torch
import torch.nn as nn


class MultiHeadBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float):
        super().__init__()
        assert d_model % h == 0, "d_model is not divisible by h"
        self.d_model = d_model
        self.h = h
        self.d_k = d_model // h
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    @staticmethod
    def attend(query, key, value, mask, dropout: nn.Dropout):
        d_k = query.shape[-1]
        score = (query @ key.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            score.masked_fill(mask == 0, -1e9)  # expect: ATT007
        score = score.softmax(dim=-1)
        if dropout is not None:
            score = dropout(score)
        return score @ value, score

    def forward(self, q, k, v, mask):
        query = self.w_q(q)
        key = self.w_k(k)
        value = self.w_v(v)
        query = query.view(query.shape[0], query.shape[1], self.h, self.d_k).transpose(1, 2)
        key = key.view(key.shape[0], key.shape[1], self.h, self.d_k).transpose(1, 2)
        value = value.view(value.shape[0], value.shape[1], self.h, self.d_k).transpose(1, 2)
        x, self.last_scores = MultiHeadBlock.attend(query, key, value, mask, self.dropout)
        x = x.transpose(1, 2).contiguous().view(x.shape[0], -1, self.h * self.d_k)
        return self.w_o(x)


class EncoderDecoder(nn.Module):
    def __init__(self, d_model: int = 512, h: int = 8, dropout: float = 0.1):
        super().__init__()
        self.enc_attn = MultiHeadBlock(d_model, h, dropout)
        self.dec_self = MultiHeadBlock(d_model, h, dropout)
        self.dec_cross = MultiHeadBlock(d_model, h, dropout)

    def forward(self, src, tgt, src_mask, tgt_mask):
        memory = src + self.enc_attn(src, src, src, src_mask)
        y = tgt + self.dec_self(tgt, tgt, tgt, tgt_mask)
        return y + self.dec_cross(y, memory, memory, src_mask)
