# case: t12e-08-fill
# modelled-on: regorie/Transformer-from-scratch https://github.com/regorie/Transformer-from-scratch/commit/e4a0f249009f9b77e7dd844d829d2bba5e87415b
# label: correct
# class: clean
# pattern: a from-scratch translation transformer whose collate function builds keep masks (True = real token) and whose multi-head attention takes a query padding mask and a key padding mask: after the causal triu fill it fills -inf where ~key_mask (broadcast as (B, 1, 1, S)) and also where ~query_mask (broadcast as (B, 1, T, 1)), softmaxes, and then replaces the NaN the padded query rows produce with zeros via torch.where(isnan(...))
# why: correct (relabelled in session 27, see ../../README.md "Notes on labels"): the query padding mask empties every padded query row and its softmax is NaN, but the torch.where(isnan(...)) patch zeroes those rows in the forward pass, and in the backward pass masked_fill's gradient is zero at every position it filled (a whole padded row), so the NaN the softmax backward produces there never reaches the scores' inputs: a PyTorch 1.13 run of this file with padded batches gives finite outputs and finite gradients for every parameter (NaN in both without the patch). The author's next commit removed the query padding mask (and later the patch), keeping only the key padding mask
# source: https://github.com/regorie/Transformer-from-scratch https://github.com/regorie/Transformer-from-scratch/commit/fb07859e623ed7c8e9553c34284dab4f5508e339 layer.py
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
        attention = torch.matmul(q, k.transpose(-2, -1))
        attention /= math.sqrt(self.d_k)
        if masked:
            causal = torch.triu(torch.ones(t, s, device=attention.device), diagonal=1).bool()
            attention = attention.masked_fill(causal, float("-inf"))
        if v_padding_mask is not None:
            kmask = v_padding_mask.unsqueeze(1).unsqueeze(1)  # (b, 1, 1, s)
            attention = attention.masked_fill(~kmask, float("-inf"))
        if q_padding_mask is not None:
            qmask = q_padding_mask.unsqueeze(1).unsqueeze(-1)  # (b, 1, t, 1)
            attention = attention.masked_fill(~qmask, float("-inf"))
        attention = F.softmax(attention, dim=-1)
        attention = torch.where(torch.isnan(attention), torch.zeros_like(attention), attention)
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
