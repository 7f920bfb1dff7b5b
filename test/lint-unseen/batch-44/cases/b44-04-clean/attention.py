# case: b44-04-clean
# modelled-on: Kamal-Nayan-Kumar/SLM https://github.com/Kamal-Nayan-Kumar/SLM/commit/84d0b9a7e121cbfd6905f320578be5d1b570bcef
# label: correct
# class: clean
# pattern: a small question-generation LM (a folder: the GQA attention with RoPE and a tuple KV cache, and the sampling loop that drives it): keys/values of earlier steps are concatenated in front of the new ones, KV heads are repeated, and F.scaled_dot_product_attention is called with is_causal = (past is None); the generator prefills the whole prompt without a cache and then feeds one sampled token per step with the cache
# why: correct: is_causal is True only for the cache-free prefill, where queries and keys have the same length and the top-left triangle is the right one; every cached call carries exactly one query (the generator's step tensor is [[token]]), which may see every cached key, so no mask is needed there; SDPA's default scale 1/sqrt(head_dim) applies
# looks-like: ATT008
# source: https://github.com/Kamal-Nayan-Kumar/SLM https://github.com/Kamal-Nayan-Kumar/SLM/commit/84d0b9a7e121cbfd6905f320578be5d1b570bcef src/model/attention.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

KV = Tuple[torch.Tensor, torch.Tensor]


class Rotary(nn.Module):
    def __init__(self, head_dim: int, max_len: int, theta: float = 10000.0):
        super().__init__()
        freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
        table = torch.outer(torch.arange(max_len).float(), freqs)
        table = torch.cat([table, table], dim=-1)
        self.register_buffer("cos", table.cos()[None, None], persistent=False)
        self.register_buffer("sin", table.sin()[None, None], persistent=False)

    def forward(self, x: torch.Tensor, start: int) -> torch.Tensor:
        n = x.size(2)
        cos, sin = self.cos[:, :, start : start + n], self.sin[:, :, start : start + n]
        lo, hi = x.chunk(2, dim=-1)
        return x * cos + torch.cat([-hi, lo], dim=-1) * sin


class GQA(nn.Module):
    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, max_len: int):
        super().__init__()
        self.n_heads, self.n_kv = n_heads, n_kv_heads
        self.hd = d_model // n_heads
        self.wq = nn.Linear(d_model, n_heads * self.hd, bias=False)
        self.wk = nn.Linear(d_model, n_kv_heads * self.hd, bias=False)
        self.wv = nn.Linear(d_model, n_kv_heads * self.hd, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)
        self.rot = Rotary(self.hd, max_len)

    def forward(self, x: torch.Tensor, past: Optional[KV] = None, use_cache: bool = False):
        B, T, _ = x.shape
        start = 0 if past is None else past[0].size(2)
        q = self.rot(self.wq(x).view(B, T, self.n_heads, self.hd).transpose(1, 2), start)
        k = self.rot(self.wk(x).view(B, T, self.n_kv, self.hd).transpose(1, 2), start)
        v = self.wv(x).view(B, T, self.n_kv, self.hd).transpose(1, 2)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        present = (k, v) if use_cache else None
        rep = self.n_heads // self.n_kv
        ka, va = (k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)) if rep > 1 else (k, v)
        y = F.scaled_dot_product_attention(q, ka, va, is_causal=past is None)
        y = self.wo(y.transpose(1, 2).reshape(B, T, -1))
        return (y, present) if use_cache else y


class Block(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, max_len):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(d_model), nn.RMSNorm(d_model)
        self.attn = GQA(d_model, n_heads, n_kv_heads, max_len)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model, bias=False), nn.SiLU(), nn.Linear(4 * d_model, d_model, bias=False))

    def forward(self, x, past=None, use_cache=False):
        a = self.attn(self.n1(x), past, use_cache)
        a, present = a if use_cache else (a, None)
        x = x + a
        return x + self.ff(self.n2(x)), present


class QGenLM(nn.Module):
    def __init__(self, vocab, d_model=512, n_heads=8, n_kv_heads=2, n_layers=8, max_len=1024):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, n_kv_heads, max_len) for _ in range(n_layers))
        self.norm = nn.RMSNorm(d_model)
        self.out = nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids, past_kvs=None, use_cache=False):
        h = self.emb(ids)
        new = []
        for i, blk in enumerate(self.blocks):
            h, p = blk(h, None if past_kvs is None else past_kvs[i], use_cache)
            new.append(p)
        logits = self.out(self.norm(h))
        return (logits, new) if use_cache else logits
