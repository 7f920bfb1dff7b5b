# case: b49-02-clean
# modelled-on: ilyes-jamoussi/minigpt-llm https://github.com/ilyes-jamoussi/minigpt-llm/commit/1f23f3a626beff4ddc3d209de7463b4426095f3a
# label: correct
# class: clean
# pattern: a from-scratch decoder-only GPT (a folder: the frozen dataclass holding the context length, head count and width, the model whose attention keeps a (1, 1, T, T) lower-triangular float buffer and blanks the zeros to -inf, and the sampler whose top-k / nucleus filters push logits to -inf, the nucleus one after a softmax over the sorted logits)
# why: correct: the buffer is torch.tril(ones) (1 = may attend) and the scores are filled where it == 0, i.e. above the diagonal, so each position sees itself and the past; the scores are (B, heads, T, T) with keys last, divided by sqrt(width // heads) and normalised over dim=-1; the context is cropped to the block size before every step, so the buffer slice [:T, :T] always covers the scores; the sampler's fills act on vocabulary logits, not attention scores, and its softmax over sorted logits only measures cumulative mass before the final softmax
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/ilyes-jamoussi/minigpt-llm https://github.com/ilyes-jamoussi/minigpt-llm/commit/1f23f3a626beff4ddc3d209de7463b4426095f3a src/model.py
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from sampling import draw
from settings import ModelSettings


class MaskedSelfAttention(nn.Module):
    lower: torch.Tensor

    def __init__(self, s: ModelSettings) -> None:
        super().__init__()
        self.heads = s.heads
        self.head_width = s.head_width
        self.qkv = nn.Linear(s.width, 3 * s.width)
        self.out = nn.Linear(s.width, s.width)
        self.drop_attn = nn.Dropout(s.dropout)
        self.drop_out = nn.Dropout(s.dropout)
        tri = torch.tril(torch.ones(s.context, s.context))
        self.register_buffer("lower", tri.view(1, 1, s.context, s.context))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, self.head_width).transpose(1, 2)
        k = k.view(b, t, self.heads, self.head_width).transpose(1, 2)
        v = v.view(b, t, self.heads, self.head_width).transpose(1, 2)
        logits = q @ k.transpose(-2, -1) / math.sqrt(self.head_width)
        logits = logits.masked_fill(self.lower[:, :, :t, :t] == 0, float("-inf"))
        weights = self.drop_attn(F.softmax(logits, dim=-1))
        y = (weights @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.drop_out(self.out(y))


class Layer(nn.Module):
    def __init__(self, s: ModelSettings) -> None:
        super().__init__()
        self.norm_a = nn.LayerNorm(s.width)
        self.attn = MaskedSelfAttention(s)
        self.norm_b = nn.LayerNorm(s.width)
        self.ff = nn.Sequential(nn.Linear(s.width, 4 * s.width), nn.GELU(), nn.Linear(4 * s.width, s.width), nn.Dropout(s.dropout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm_a(x))
        return x + self.ff(self.norm_b(x))


class TinyGPT(nn.Module):
    def __init__(self, s: ModelSettings) -> None:
        super().__init__()
        self.s = s
        self.tok = nn.Embedding(s.vocab_size, s.width)
        self.pos = nn.Embedding(s.context, s.width)
        self.drop = nn.Dropout(s.dropout)
        self.layers = nn.ModuleList(Layer(s) for _ in range(s.layers))
        self.norm = nn.LayerNorm(s.width)
        self.head = nn.Linear(s.width, s.vocab_size, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, ids: torch.Tensor, targets: torch.Tensor | None = None):
        t = ids.size(1)
        if t > self.s.context:
            raise ValueError(f"{t} tokens exceed the context of {self.s.context}")
        h = self.drop(self.tok(ids) + self.pos(torch.arange(t, device=ids.device)))
        for layer in self.layers:
            h = layer(h)
        logits = self.head(self.norm(h))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss

    @torch.no_grad()
    def continue_ids(self, ids: torch.Tensor, steps: int, temperature=1.0, top_k=None, top_p=None) -> torch.Tensor:
        for _ in range(steps):
            logits, _ = self(ids[:, -self.s.context :])
            nxt = draw(logits[:, -1, :], temperature, top_k, top_p)
            ids = torch.cat([ids, nxt], dim=1)
        return ids
