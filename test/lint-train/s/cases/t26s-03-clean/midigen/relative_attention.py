# case: t26s-03-clean
# modelled-on: freq1062/music-transformer https://github.com/freq1062/music-transformer/commit/644eab7669560da816e03079512fac5d507aef2a
# label: correct
# class: clean
# pattern: a decoder-only Music Transformer over MIDI events: a settings module gives seq_len, read at import into a module-level dict and used as max_len of the relative attention; keys are reshaped and permuted (0, 2, 3, 1) straight to (B, H, d_head, T) so q @ k_t needs no transpose; learned relative embeddings Er (max_len, d_head) are sliced to the last T rows, multiplied with q and "skewed" (pad one column on the left, reshape to (T + 1, T), drop the first row); the sum QK_t + Srel is divided by math.sqrt(q.size(-1)), a tril(ones) buffer sliced to T is applied with masked_fill(mask == 0, -inf) and softmax(dim=-1)
# why: correct: k_t is already (B, H, d_head, T), so q @ k_t is the (T, T) score matrix; the skew is Huang et al.'s memory-efficient relative-position trick and yields Srel[i, j] = q_i . Er[j - i + T - 1] for j <= i (the entries above the diagonal are garbage and are masked); both terms are divided by sqrt(d_head) of the per-head query; the buffer is a keep mask (1 on and below the diagonal), so == 0 blocks the future
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/freq1062/music-transformer https://github.com/freq1062/music-transformer/commit/644eab7669560da816e03079512fac5d507aef2a model3.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from midigen.settings import get_settings

S = get_settings()


class RelativeGlobalAttention(nn.Module):
    def __init__(self, d_model, num_heads, max_len=256, dropout=0.1):
        super().__init__()
        d_head, rem = divmod(d_model, num_heads)
        if rem:
            raise ValueError("d_model must be divisible by num_heads")
        self.max_len, self.num_heads = max_len, num_heads
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)
        self.query = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.Er = nn.Parameter(torch.randn(max_len, d_head))
        self.register_buffer("mask", torch.tril(torch.ones(max_len, max_len)).unsqueeze(0).unsqueeze(0))

    def forward(self, x):
        b, t, _ = x.shape
        if t > self.max_len:
            raise ValueError("sequence longer than max_len")
        k_t = self.key(x).reshape(b, t, self.num_heads, -1).permute(0, 2, 3, 1)
        v = self.value(x).reshape(b, t, self.num_heads, -1).transpose(1, 2)
        q = self.query(x).reshape(b, t, self.num_heads, -1).transpose(1, 2)
        er_t = self.Er[self.max_len - t :, :].transpose(0, 1)
        s_rel = self.skew(torch.matmul(q, er_t))
        qk_t = torch.matmul(q, k_t)
        attn = (qk_t + s_rel) / math.sqrt(q.size(-1))
        mask = self.mask[:, :, :t, :t]
        attn = attn.masked_fill(mask == 0, float("-inf"))
        attn = F.softmax(attn, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(b, t, -1)
        return self.dropout(out)

    @staticmethod
    def skew(q_er):
        padded = F.pad(q_er, (1, 0))
        b, h, rows, cols = padded.shape
        return padded.reshape(b, h, cols, rows)[:, :, 1:, :]


class DecoderBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout):
        super().__init__()
        self.self_attn = RelativeGlobalAttention(d_model, num_heads, S["seq_len"], dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = self.norm1(x + self.drop(self.self_attn(x)))
        return self.norm2(x + self.drop(self.ff(x)))
