# case: b8-15-fill
# modelled-on: ParteekSJ/transformer-scratch https://github.com/ParteekSJ/transformer-scratch/commit/6f80a056ada5ee5b7634969b83cbeeae2812ee8e
# label: buggy
# class: real-bug
# pattern: an encoder-decoder translation transformer (the common "from scratch" tutorial layout): the dataset module builds the encoder padding mask and the decoder mask (padding & causal, True/1 = keep) and the attention fills the scores in place with masked_fill_(mask=mask == 0, value=-1e-9) before the softmax
# why: buggy: -1e-9 is a tiny negative number, not a large one, so the "masked" scores stay about 0 and keep a softmax weight comparable to the real ones: the encoder attends to padding and the decoder sees every future token, which the causal and padding masks built in the dataset module are there to prevent (the layout this code follows fills -1e9). No fix was found; the label rests on the masks' documented purpose and the softmax arithmetic
# source: https://github.com/ParteekSJ/transformer-scratch https://github.com/ParteekSJ/transformer-scratch/commit/6f80a056ada5ee5b7634969b83cbeeae2812ee8e models/transformer.py
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float) -> None:
        super().__init__()
        assert d_model % h == 0, f"{d_model} not divisible by {h}"
        self.d_model, self.h, self.d_k = d_model, h, d_model // h
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    @staticmethod
    def attention(query, key, value, mask, dropout: nn.Dropout):
        d_k = query.shape[-1]
        scores = (query @ key.transpose(-2, -1)) / math.sqrt(d_k)  # [B, h, T_q, T_k]
        if mask is not None:
            scores.masked_fill_(mask=mask == 0, value=-1e-9)  # expect: ATT007
        weights = scores.softmax(dim=-1)
        if dropout is not None:
            weights = dropout(weights)
        return weights @ value, weights

    def forward(self, q, k, v, mask):
        B = q.shape[0]
        query = self.W_q(q).view(B, q.shape[1], self.h, self.d_k).transpose(1, 2)
        key = self.W_k(k).view(B, k.shape[1], self.h, self.d_k).transpose(1, 2)
        value = self.W_v(v).view(B, v.shape[1], self.h, self.d_k).transpose(1, 2)
        x, _ = MultiHeadAttention.attention(query, key, value, mask, self.dropout)
        x = x.transpose(2, 1).contiguous().view(B, -1, self.h * self.d_k)
        return self.W_o(x)


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, h: int, dropout: float):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, h, dropout)
        self.cross_attn = MultiHeadAttention(d_model, h, dropout)
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(2)])

    def forward(self, x, enc_out, encoder_mask, decoder_mask):
        h = self.norms[0](x)
        x = x + self.self_attn(h, h, h, decoder_mask)
        h = self.norms[1](x)
        return x + self.cross_attn(h, enc_out, enc_out, encoder_mask)
