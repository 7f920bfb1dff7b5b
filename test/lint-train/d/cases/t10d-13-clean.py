# case: t10d-13-clean
# modelled-on: ryanGTR/llm-from-scratch https://github.com/ryanGTR/llm-from-scratch/commit/b28b3890df01d2e04741608c536178eeb2e70424
# label: correct
# class: clean
# pattern: a book's KV-cache exercise: the same causal attention runs a naive forward over the whole sequence (tril buffer, masked_fill with -inf, softmax over the last axis) and a step method that takes one new token (B, 1, C), concatenates its k and v to the cached ones on the sequence axis and attends over them with no mask; the prompt is prefilled one token at a time through step, and the two generators are meant to agree token for token
# why: correct: in step there is a single query and every cached key is in its past (the prompt is fed through step one token at a time, not as a block), so no causal mask is needed; the naive path masks the future with the tril buffer sliced to T; both scale by 1/sqrt of the head width; what a naive linter could misread: ATT008 (attention over a growing KV cache with no mask), ATT002 (masked_fill where tril == 0), ATT004 (a module-level head width in the scale)
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/ryanGTR/llm-from-scratch https://github.com/ryanGTR/llm-from-scratch/commit/b28b3890df01d2e04741608c536178eeb2e70424 book/examples/tiny_kvcache.py
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

block_size = 1024
n_embd = 128
n_head = 4
n_layer = 4
vocab_size = 96
head_dim = n_embd // n_head


class Attn(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.proj = nn.Linear(n_embd, n_embd, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def _split(self, t, B, T):
        return t.view(B, T, n_head, head_dim).transpose(1, 2)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(n_embd, dim=2)
        q, k, v = self._split(q, B, T), self._split(k, B, T), self._split(v, B, T)
        att = q @ k.transpose(-2, -1) / math.sqrt(head_dim)
        att = att.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))

    def step(self, x_t, cache):
        # x_t: (B, 1, C), the newest token only
        B = x_t.shape[0]
        q, k, v = self.qkv(x_t).split(n_embd, dim=2)
        q, k, v = self._split(q, B, 1), self._split(k, B, 1), self._split(v, B, 1)
        if cache is None:
            k_all, v_all = k, v
        else:
            k_all = torch.cat([cache[0], k], dim=2)
            v_all = torch.cat([cache[1], v], dim=2)
        att = q @ k_all.transpose(-2, -1) / math.sqrt(head_dim)  # every cached key is in the past
        y = F.softmax(att, dim=-1) @ v_all
        return self.proj(y.transpose(1, 2).contiguous().view(B, 1, n_embd)), (k_all, v_all)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(n_embd), nn.LayerNorm(n_embd)
        self.attn = Attn()
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))

    def step(self, x, cache):
        a, new_cache = self.attn.step(self.ln1(x), cache)
        x = x + a
        return x + self.mlp(self.ln2(x)), new_cache


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block() for _ in range(n_layer)])
        self.lnf = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1]))
        for b in self.blocks:
            x = b(x)
        return self.head(self.lnf(x))

    def _step(self, tok, pos, caches):
        x = self.tok(tok) + self.pos(torch.tensor([pos]))
        new = []
        for b, c in zip(self.blocks, caches):
            x, nc = b.step(x, c)
            new.append(nc)
        return self.head(self.lnf(x)), new

    @torch.no_grad()
    def generate_cached(self, idx, n):
        caches = [None] * n_layer
        for pos in range(idx.shape[1]):  # prefill one token at a time
            logits, caches = self._step(idx[:, pos : pos + 1], pos, caches)
        for _ in range(n):
            nxt = logits[:, -1, :].argmax(-1, keepdim=True)
            idx = torch.cat([idx, nxt], dim=1)
            logits, caches = self._step(nxt, idx.shape[1] - 1, caches)
        return idx
