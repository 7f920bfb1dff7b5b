# case: b47-10-clean
# modelled-on: klenioaraujo/Reformulating-Transformers-for-LLMs https://github.com/klenioaraujo/Reformulating-Transformers-for-LLMs/commit/c950dec8093cfc3f92f22e081150f6c2a7e7064d
# label: correct
# class: clean
# pattern: a from-scratch pre-norm decoder-only generator (character level): a causal mask from torch.triu(ones, diagonal=1).bool() (True above the diagonal = future), optionally OR-ed with the complement of a pairwise padding mask built from a 1 = real token attention_mask; each attention head scores Q @ K^T / sqrt(d_k), masked_fill(mask, -1e9) where the mask is True, softmax over keys, dropout; generation samples with temperature, top-k and top-p
# why: correct: the combined mask is True exactly at the positions to hide (future keys, or a padded query or key), and masked_fill writes -1e9 there; the padding term is the complement (~) of the real-token product, so it is True on padding; a padded query row is all -1e9 and gets a uniform, finite softmax that is never read; the scale is sqrt of the per-head width d_k = d_model // n_heads
# looks-like: ATT002, ATT007
# source: https://github.com/klenioaraujo/Reformulating-Transformers-for-LLMs https://github.com/klenioaraujo/Reformulating-Transformers-for-LLMs/commit/c950dec8093cfc3f92f22e081150f6c2a7e7064d base.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, hide=None):
        b, n, _ = x.shape
        Q = self.q(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        K = self.k(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        V = self.v(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.d_k)
        if hide is not None:
            scores = scores.masked_fill(hide[:, None], -1e9)
        w = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(w, V).transpose(1, 2).contiguous().view(b, n, -1)
        return self.o(out)


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.1):
        super().__init__()
        self.attn = HeadAttention(d_model, n_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.n1, self.n2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, hide=None):
        x = x + self.drop(self.attn(self.n1(x), hide))
        return x + self.drop(self.ff(self.n2(x)))


class CharGenerator(nn.Module):
    def __init__(self, vocab=256, d_model=512, n_heads=8, d_ff=2048, n_layers=6, max_len=1024, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([DecoderLayer(d_model, n_heads, d_ff, dropout) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, attention_mask=None):
        b, n = ids.shape
        future = torch.triu(torch.ones(n, n, device=ids.device), diagonal=1).bool()
        if attention_mask is not None:
            real = attention_mask.bool()
            both_real = real[:, None, :] & real[:, :, None]
            hide = future[None] | ~both_real
        else:
            hide = future[None].expand(b, -1, -1)
        x = self.tok(ids) + self.pos(torch.arange(n, device=ids.device))[None]
        for layer in self.layers:
            x = layer(x, hide)
        return self.head(self.norm(x))

    @torch.no_grad()
    def generate(self, ids, steps=100, temperature=1.0, top_k=50, top_p=0.9):
        for _ in range(steps):
            logits = self(ids[:, -self.pos.num_embeddings:])[:, -1] / temperature
            kth = torch.topk(logits, top_k).values[:, -1, None]
            logits = logits.masked_fill(logits < kth, float("-inf"))
            sorted_logits, order = torch.sort(logits, descending=True)
            cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
            drop = cum - F.softmax(sorted_logits, dim=-1) > top_p
            sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
            logits = torch.full_like(logits, float("-inf")).scatter(1, order, sorted_logits)
            nxt = torch.multinomial(F.softmax(logits, dim=-1), 1)
            ids = torch.cat([ids, nxt], dim=1)
        return ids
