from __future__ import annotations

import torch
from torch import Tensor, nn

from .decoder.attention import CausalSelfAttention


class Block(nn.Module):
    def __init__(self, hidden: int, heads: int):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.attn = CausalSelfAttention(hidden, heads)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))

    def forward(self, x, past=None, use_cache=False):
        a = self.attn(self.norm1(x), past, use_cache)
        present = None
        if use_cache:
            a, present = a
        x = x + a
        x = x + self.mlp(self.norm2(x))
        return (x, present) if use_cache else x


class TinyLM(nn.Module):
    def __init__(self, vocab: int, window: int = 256, hidden: int = 256, heads: int = 4, blocks: int = 4):
        super().__init__()
        self.window = window
        self.embed = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList([Block(hidden, heads) for _ in range(blocks)])
        self.head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, ids: Tensor, pasts: list | None = None, use_cache: bool = False):
        x = self.embed(ids)
        if not use_cache:
            for blk in self.blocks:
                x = blk(x)
            return self.head(x)
        pasts = pasts or [None] * len(self.blocks)
        presents = []
        for blk, past in zip(self.blocks, pasts):
            x, present = blk(x, past, True)
            presents.append(present)
        return self.head(x), presents
