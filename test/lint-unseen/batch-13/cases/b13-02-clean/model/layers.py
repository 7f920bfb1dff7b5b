# case: b13-02-clean
# modelled-on: rosaaldama278/multilingual-translation-transformer https://github.com/rosaaldama278/multilingual-translation-transformer/commit/490ddfc6ed5aee2ba4b53820648c2a583affc297
# label: correct
# class: clean
# pattern: a translation transformer whose seq2seq module builds boolean keep masks (token != 0 unsqueezed to (B, 1, 1, S); the target's ANDed with a bool tril) and hands them down; the multi-head modules expand them to (B, heads, Lq, Lk) and a shared scaled-product module fills -inf where attn_mask == False, scaling by np.sqrt of the per-head width taken from the query's last axis, softmax from an nn.Softmax(dim=-1) built in __init__
# why: correct: the masks are keep masks (True = a real token / an allowed earlier position) and the fill goes where they are False, so padding and future keys get -inf; every row keeps key 0 (the start token is never padding, and tril keeps the diagonal), so no row is all -inf; d_k is the last axis of the (B, heads, L, h_dim) query, the per-head width; key.transpose(-1, -2) swaps the last two axes of 4-D keys; what a naive linter could misread: ATT002 (== False on a mask named attn_mask, and masks built in another module), ATT007 (-inf fill), ATT004 (np.sqrt of a shape value), ATT001 (softmax module built in __init__), ATT005 (transpose(-1, -2))
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/rosaaldama278/multilingual-translation-transformer https://github.com/rosaaldama278/multilingual-translation-transformer/commit/490ddfc6ed5aee2ba4b53820648c2a583affc297 model/encoder.py
import numpy as np
import torch
import torch.nn as nn


class ScaledProduct(nn.Module):
    def __init__(self, dropout: float = 0.1):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, query, key, value, attn_mask=None):
        _, _, _, d_k = query.shape
        attn = torch.matmul(query, key.transpose(-1, -2)) / np.sqrt(d_k)
        if attn_mask is not None:
            attn = attn.masked_fill(attn_mask == False, float("-inf"))  # noqa: E712
        attn = self.dropout(self.softmax(attn))
        return torch.matmul(attn, value)


class SelfAttention(nn.Module):
    def __init__(self, n_head: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.n_head = n_head
        self.core = ScaledProduct(dropout)
        self.dropout = nn.Dropout(p=dropout)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, attn_mask=None):
        b, n, d = x.shape
        h = d // self.n_head
        q = self.q(x).view(b, n, self.n_head, h).permute(0, 2, 1, 3)
        k = self.k(x).view(b, n, self.n_head, h).permute(0, 2, 1, 3)
        v = self.v(x).view(b, n, self.n_head, h).permute(0, 2, 1, 3)
        if attn_mask is not None:
            attn_mask = attn_mask.expand(b, self.n_head, n, n)
        out = self.core(q, k, v, attn_mask).permute(0, 2, 1, 3).reshape(b, n, -1)
        return self.norm(self.dropout(out) + x)


class CrossAttention(nn.Module):
    def __init__(self, n_head: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        self.n_head = n_head
        self.d_model = d_model
        self.h = d_model // n_head
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.core = ScaledProduct(dropout)
        self.dropout = nn.Dropout(p=dropout)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, target, memory, attn_mask=None):
        b, lt, _ = target.shape
        _, lm, _ = memory.shape
        q = self.q(target).view(b, lt, self.n_head, self.h).permute(0, 2, 1, 3)
        k = self.k(memory).view(b, lm, self.n_head, self.h).permute(0, 2, 1, 3)
        v = self.v(memory).view(b, lm, self.n_head, self.h).permute(0, 2, 1, 3)
        if attn_mask is not None:
            attn_mask = attn_mask.expand(b, self.n_head, lt, lm)
        out = self.core(q, k, v, attn_mask).permute(0, 2, 1, 3).contiguous().view(b, lt, self.d_model)
        return self.norm(self.dropout(out) + target)
