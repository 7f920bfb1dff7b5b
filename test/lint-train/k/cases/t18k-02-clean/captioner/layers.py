# case: t18k-02-clean
# modelled-on: minjoong507/Image-Captioning-Transformer https://github.com/minjoong507/Image-Captioning-Transformer/commit/813060f0bb656e336154173f11e99a80362c8c2a
# label: correct
# class: clean
# pattern: a BERT-style captioning encoder-decoder: the dataset builds 0/1 keep masks (1 = real token); the decoder layer multiplies the (N, 1, L) keep mask by a tril of ones for the causal part; the attention turns whatever keep mask it receives into an additive bias inside forward with `(1 - mask.unsqueeze(1)) * -10000.` and adds it to the scaled scores; cross-attention passes the encoder's keep mask unsqueezed to (N, 1, Lv)
# why: correct: every mask is a keep mask (1 = attend); the product of two keep masks is their AND; `(1 - m) * -10000.` is 0 where attended and -10000 where hidden, added before the softmax over the key axis (the HF BERT idiom); training is float32, so -10000 is representable and below every real logit; no row is fully hidden (the first real token is always visible)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/minjoong507/Image-Captioning-Transformer https://github.com/minjoong507/Image-Captioning-Transformer/commit/813060f0bb656e336154173f11e99a80362c8c2a model/layers.py
import math

import torch
from torch import nn


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
        n, length, _ = x.shape
        return x.view(n, length, self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, q_states, k_states, v_states, keep_mask):
        """keep_mask: (N, Lq, L), 1 = attend."""
        bias = (1 - keep_mask.unsqueeze(1)) * -10000.0  # (N, 1, Lq, L)
        q = self.split(self.query(q_states))
        k = self.split(self.key(k_states))
        v = self.split(self.value(v_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        scores = scores + bias
        probs = self.dropout(nn.Softmax(dim=-1)(scores))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.shape[0], ctx.shape[1], -1)


class DecoderLayer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.self_attn = SelfAttention(hidden, heads)
        self.cross_attn = SelfAttention(hidden, heads)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, dec_states, dec_mask, enc_out, enc_mask, causal=True):
        self_mask = dec_mask.unsqueeze(1)  # (N, 1, Lt)
        if causal:
            length = dec_mask.size(1)
            self_mask = self_mask * torch.tril(self_mask.new_ones(length, length), diagonal=0)
        x = self.norm1(dec_states + self.self_attn(dec_states, dec_states, dec_states, self_mask))
        # the mask of the keys (encoder positions), not of the queries
        y = self.cross_attn(x, enc_out, enc_out, enc_mask.unsqueeze(1))
        return self.norm2(x + y)
