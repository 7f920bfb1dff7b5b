# case: t12e-09-fill
# modelled-on: regorie/Transformer-from-scratch https://github.com/regorie/Transformer-from-scratch/commit/a906e39edb0293e5266b7c8a8292d7c7626e7440
# label: correct
# class: fixed
# pattern: the same translation transformer after its fix: the multi-head attention still takes a query and a key padding mask (True = real token, built by the collate function), but fills -inf only where ~key_mask, broadcast as (B, 1, 1, S), after the causal triu fill of the decoder's self-attention, and softmaxes without a NaN patch; the query padding mask is accepted and no longer used
# why: correct: only keys are hidden, so every query row keeps at least its first (real) key and no row is all -inf, with right padding as the collate function pads; the causal triu(diagonal=1) keeps the diagonal; padded query rows produce outputs that the loss ignores; the scale is the per-head d_k from the layer's config dict; what a naive linter could misread: ATT002 (a negated keep mask), ATT007 (-inf fills, a causal mask combined with key padding), ATT004 (a scale read from the per-layer config dict)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/regorie/Transformer-from-scratch https://github.com/regorie/Transformer-from-scratch/commit/a906e39edb0293e5266b7c8a8292d7c7626e7440 layer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim: int, args: dict):
        super().__init__()
        self.d_k, self.d_v, self.n_head = args["d_k"], args["d_v"], args["n_head"]
        self.W_q = nn.Linear(embed_dim, self.d_k * self.n_head)
        self.W_k = nn.Linear(embed_dim, self.d_k * self.n_head)
        self.W_v = nn.Linear(embed_dim, self.d_v * self.n_head)
        self.W_concat = nn.Linear(self.d_v * self.n_head, embed_dim)

    def forward(self, query, key, value, q_padding_mask=None, v_padding_mask=None, masked=False):
        # padding masks: (batch, len), True for real tokens, False for padding
        b, t, _ = query.shape
        s = value.shape[1]
        q = self.W_q(query).reshape(b, t, self.n_head, self.d_k).transpose(1, 2)
        k = self.W_k(key).reshape(b, s, self.n_head, self.d_k).transpose(1, 2)
        v = self.W_v(value).reshape(b, s, self.n_head, self.d_v).transpose(1, 2)
        attention = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d_k)
        if masked:
            causal = torch.triu(torch.ones(t, s, device=attention.device), diagonal=1).bool()
            attention = attention.masked_fill(causal, float("-inf"))
        if v_padding_mask is not None:
            kmask = v_padding_mask.unsqueeze(1).unsqueeze(1)  # (b, 1, 1, s)
            attention = attention.masked_fill(~kmask, float("-inf"))
        attention = F.softmax(attention, dim=-1)
        out = torch.matmul(attention, v).transpose(1, 2).reshape(b, t, self.n_head * self.d_v)
        return self.W_concat(out)


class EncoderLayer(nn.Module):
    def __init__(self, embed_dim: int, args: dict):
        super().__init__()
        self.attention = MultiheadAttention(embed_dim, args["attention"])
        self.norm = nn.LayerNorm(embed_dim, eps=1e-6)

    def forward(self, x, mask=None):
        return self.norm(x + self.attention(x, x, x, mask, mask))


class DecoderLayer(nn.Module):
    def __init__(self, embed_dim: int, args: dict):
        super().__init__()
        self.masked_attention = MultiheadAttention(embed_dim, args["self_attention"])
        self.attention = MultiheadAttention(embed_dim, args["attention"])
        self.norm1 = nn.LayerNorm(embed_dim, eps=1e-6)
        self.norm2 = nn.LayerNorm(embed_dim, eps=1e-6)

    def forward(self, x, memory, src_mask=None, trg_mask=None):
        h = self.norm1(x + self.masked_attention(x, x, x, trg_mask, trg_mask, masked=True))
        return self.norm2(h + self.attention(h, memory, memory, None, src_mask))
