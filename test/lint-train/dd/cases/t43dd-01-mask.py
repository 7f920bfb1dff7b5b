# case: t43dd-01-mask
# modelled-on: dericpang/tiny-llm https://github.com/dericpang/tiny-llm/commit/09d8bb4bc7e8ed43c40775dc1fdbe5a63eae4111
# label: buggy
# class: real-bug
# pattern: a tiny grouped-query decoder with a KV cache: a registered boolean buffer `tril(ones(L, L)) == 0` (True above the diagonal, the future), sliced bottom-right as `[past:past + T, :past + T]` for T new queries over past + T keys; the manual path fills it with -inf (right), the flash path hands the same buffer to `F.scaled_dot_product_attention` as its positional attn_mask
# why: buggy: a boolean attn_mask of scaled_dot_product_attention is True where a query MAY attend, so the flash path lets every query see only its strict future and hides its past and itself (the last query of the prompt sees nothing: a row of all False, NaN); the manual path fills the same True entries with -inf, which is the intended polarity, so the two switchable paths disagree
# source: https://github.com/dericpang/tiny-llm https://github.com/dericpang/tiny-llm/commit/09d8bb4bc7e8ed43c40775dc1fdbe5a63eae4111 model.py
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class TinyConfig:
    vocab: int
    width: int
    heads: int
    kv_heads: int
    layers: int
    max_len: int
    use_flash: bool


class GroupedAttention(nn.Module):
    def __init__(self, cfg: TinyConfig) -> None:
        super().__init__()
        assert cfg.width % cfg.heads == 0 and cfg.heads % cfg.kv_heads == 0
        self.cfg = cfg
        hs = cfg.width // cfg.heads
        self.qkv = nn.Linear(cfg.width, (cfg.heads + 2 * cfg.kv_heads) * hs)
        self.out = nn.Linear(cfg.width, cfg.width)
        self.register_buffer("future", torch.tril(torch.ones(cfg.max_len, cfg.max_len)) == 0)

    def forward(self, x, cache=None):
        B, T, C = x.shape
        hs = C // self.cfg.heads
        past = cache[0].shape[2] if cache else 0
        q, k, v = self.qkv(x).split(
            [self.cfg.heads * hs, self.cfg.kv_heads * hs, self.cfg.kv_heads * hs], dim=-1
        )
        q = q.view(B, T, self.cfg.heads, hs).transpose(1, 2)
        k = k.view(B, T, self.cfg.kv_heads, hs).transpose(1, 2)
        v = v.view(B, T, self.cfg.kv_heads, hs).transpose(1, 2)
        if cache:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        new_cache = (k, v)
        rep = self.cfg.heads // self.cfg.kv_heads
        k = torch.repeat_interleave(k, rep, dim=1)
        v = torch.repeat_interleave(v, rep, dim=1)

        mask = self.future[past : past + T, : past + T]
        if self.cfg.use_flash:
            y = F.scaled_dot_product_attention(q, k, v, mask, dropout_p=0.0)  # expect: ATT002
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
            att = att.masked_fill(mask, float("-inf"))
            att = F.softmax(att, dim=-1)
            y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y), new_cache


class Block(nn.Module):
    def __init__(self, cfg: TinyConfig) -> None:
        super().__init__()
        self.n1 = nn.RMSNorm(cfg.width)
        self.attn = GroupedAttention(cfg)
        self.n2 = nn.RMSNorm(cfg.width)
        self.ff = nn.Sequential(nn.Linear(cfg.width, 4 * cfg.width), nn.GELU(), nn.Linear(4 * cfg.width, cfg.width))

    def forward(self, x, cache=None):
        h, cache = self.attn(self.n1(x), cache)
        x = x + h
        return x + self.ff(self.n2(x)), cache


class TinyLM(nn.Module):
    def __init__(self, cfg: TinyConfig) -> None:
        super().__init__()
        self.max_len = cfg.max_len
        self.emb = nn.Embedding(cfg.vocab, cfg.width)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.layers)])
        self.norm = nn.RMSNorm(cfg.width)
        self.head = nn.Linear(cfg.width, cfg.vocab)

    def forward(self, idx, caches=None):
        x = self.emb(idx)
        fresh = []
        for i, blk in enumerate(self.blocks):
            x, c = blk(x, caches[i] if caches else None)
            fresh.append(c)
        return self.head(self.norm(x)), fresh

    @torch.no_grad()
    def generate(self, idx, use_cache=True):
        caches = None
        for _ in range(self.max_len - idx.shape[1]):
            if use_cache and caches:
                logits, caches = self(idx[:, -1:], caches)
            else:
                logits, caches = self(idx)
            nxt = torch.multinomial(F.softmax(logits[:, -1, :], dim=-1), 1)
            idx = torch.cat([idx, nxt], dim=1)
        return idx
