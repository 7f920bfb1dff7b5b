# case: t43dd-07-clean
# modelled-on: Elliot-Sones/miniGPT https://github.com/Elliot-Sones/miniGPT/commit/5987969819570322994d2b90c3d9c21b0a2dbd86
# label: correct
# class: clean
# pattern: a tiny encoder-decoder translator's multi-head attention for self- and cross-attention: a key padding KEEP mask (B, S) (1/True = real token, built in another module as `ids != pad`) is applied as `masked_fill(~keep[:, None, None, :], -inf)`, a causal `ones(T, S).triu(1)` (asserted T == S) filled with -inf, softmax(dim=-1), then rows whose scores are all -inf zeroed AFTER the softmax with `torch.where(isinf(scores).all(-1, keepdim=True), 0, weights)`; decoding re-runs the whole prefix each step (no cache)
# why: correct: the masks are keep masks negated before the fill, so padding and the future get -inf; the zeroing after the softmax selects whole query rows (a padded query that sees no key) and replaces their NaN with 0, it is a NaN guard, not a mask over keys needing renormalisation; the causal mask is only used with T == S (teacher forcing or a re-run prefix), so its top-left alignment is right
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/Elliot-Sones/miniGPT https://github.com/Elliot-Sones/miniGPT/commit/5987969819570322994d2b90c3d9c21b0a2dbd86 machine_translation/mini_transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class FlexAttention(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.hd = dim // heads
        self.scale = 1.0 / math.sqrt(self.hd)
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, kv=None, key_keep=None, causal=False):
        B, T, D = x.shape
        kv = x if kv is None else kv
        S = kv.shape[1]
        q = self.q(x).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = self.k(kv).view(B, S, self.heads, self.hd).transpose(1, 2)
        v = self.v(kv).view(B, S, self.heads, self.hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        if key_keep is not None:
            keep = key_keep.bool().unsqueeze(1).unsqueeze(1)
            scores = scores.masked_fill(~keep, float("-inf"))
        if causal:
            assert T == S, "causal attention is self-attention"
            ahead = torch.ones((T, S), device=scores.device, dtype=torch.bool).triu(1)
            scores = scores.masked_fill(ahead[None, None], float("-inf"))
        weights = F.softmax(scores, dim=-1)
        dead = torch.isinf(scores).all(dim=-1, keepdim=True)
        weights = torch.where(dead, torch.zeros_like(weights), weights)
        out = torch.matmul(self.drop(weights), v)
        return self.o(out.transpose(1, 2).contiguous().view(B, T, D))


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads, hidden, dropout):
        super().__init__()
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.self_attn = FlexAttention(dim, heads, dropout)
        self.cross_attn = FlexAttention(dim, heads, dropout)
        self.ff = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x, tgt_keep, memory, src_keep):
        x = x + self.self_attn(self.n1(x), key_keep=tgt_keep, causal=True)
        x = x + self.cross_attn(self.n2(x), kv=memory, key_keep=src_keep, causal=False)
        return x + self.ff(self.n3(x))
