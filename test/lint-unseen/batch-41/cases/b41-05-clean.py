# case: b41-05-clean
# modelled-on: b8zhong/moe-transformer-jax https://github.com/b8zhong/moe-transformer-jax/commit/9b798de235e59eb54d0028cb33c606dd5aceb80b
# label: correct
# class: clean
# pattern: grouped-query attention in a PyTorch port of a JAX mixture-of-experts transformer: the KV cache is one tensor (B, T, H, K + V) that the layer splits, joins with the new keys/values along the time axis and hands back whole; rotary positions start at the cache length; scores come from an einsum that groups the query heads, the causal mask is the last q_len rows of a square tril over all T keys, -inf is written with torch.where, and the 1/sqrt(K) scale is applied inside the softmax call after masking; a dict of per-layer caches threads through the stack
# why: correct: rows [-q_len:] of tril(ones(T, T)) are the bottom-right alignment that cached decoding needs (the new queries are the last q_len positions), and with no cache they are the plain square triangle; dividing after the -inf fill leaves -inf at -inf; the scale uses the per-head key width; every query sees at least itself, so no row is all -inf
# looks-like: ATT003, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/b8zhong/moe-transformer-jax https://github.com/b8zhong/moe-transformer-jax/commit/9b798de235e59eb54d0028cb33c606dd5aceb80b model.py
from typing import Dict, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import nn


class Rotary(nn.Module):
    def __init__(self, dim: int, max_len: int = 4096, base: float = 10000.0):
        super().__init__()
        freqs = base ** (-torch.arange(0, dim, 2, dtype=torch.float32) / dim)
        angles = torch.outer(torch.arange(max_len, dtype=torch.float32), freqs).repeat(1, 2)
        self.register_buffer("cos", angles.cos()[None, :, None, :])
        self.register_buffer("sin", angles.sin()[None, :, None, :])

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        t = x.shape[1]
        first, second = x.chunk(2, dim=-1)
        swapped = torch.cat([-second, first], dim=-1)
        return x * self.cos[:, start : start + t] + swapped * self.sin[:, start : start + t]


class GroupedAttention(nn.Module):
    def __init__(self, width: int, q_heads: int, kv_heads: int, k_dim: int, v_dim: int):
        super().__init__()
        assert q_heads % kv_heads == 0
        self.q_heads, self.kv_heads, self.groups = q_heads, kv_heads, q_heads // kv_heads
        self.k_dim, self.v_dim = k_dim, v_dim
        self.wq = nn.Linear(width, q_heads * k_dim, bias=False)
        self.wk = nn.Linear(width, kv_heads * k_dim, bias=False)
        self.wv = nn.Linear(width, kv_heads * v_dim, bias=False)
        self.wo = nn.Linear(q_heads * v_dim, width, bias=False)
        self.rotary = Rotary(k_dim)

    def forward(self, x: torch.Tensor, cache: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        b, t, _ = x.shape
        past = 0 if cache is None else cache.shape[1]
        q = self.rotary(self.wq(x).view(b, t, self.q_heads, self.k_dim), past)
        k = self.rotary(self.wk(x).view(b, t, self.kv_heads, self.k_dim), past)
        v = self.wv(x).view(b, t, self.kv_heads, self.v_dim)
        if cache is not None:
            k = torch.cat([cache[..., : self.k_dim], k], dim=1)
            v = torch.cat([cache[..., self.k_dim :], v], dim=1)
        return self._attend(q, k, v), torch.cat([k, v], dim=-1)

    def _attend(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        b, t = q.shape[:2]
        total = k.shape[1]
        q = q.view(b, t, self.groups, self.kv_heads, self.k_dim)
        scores = torch.einsum("btghk,bshk->bghts", q, k).float()
        keep = torch.tril(torch.ones(total, total, device=q.device))[-t:, :].bool()
        scores = torch.where(keep, scores, torch.full_like(scores, float("-inf")))
        probs = F.softmax(scores / self.k_dim**0.5, dim=-1).to(v.dtype)
        out = torch.einsum("bghts,bshv->btghv", probs, v)
        return self.wo(out.reshape(b, t, self.q_heads * self.v_dim))


class Stack(nn.Module):
    def __init__(self, vocab: int, width: int = 256, depth: int = 4, q_heads: int = 8, kv_heads: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.norms = nn.ModuleList(nn.RMSNorm(width) for _ in range(depth))
        self.attns = nn.ModuleList(GroupedAttention(width, q_heads, kv_heads, 32, 32) for _ in range(depth))
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, ids: torch.Tensor, caches: Optional[Dict[int, torch.Tensor]] = None):
        caches = caches or {}
        h = self.embed(ids)
        fresh = {}
        for i, (norm, attn) in enumerate(zip(self.norms, self.attns)):
            delta, fresh[i] = attn(norm(h), caches.get(i))
            h = h + delta
        return self.head(h), fresh

    @torch.no_grad()
    def greedy(self, prompt: torch.Tensor, steps: int) -> torch.Tensor:
        logits, caches = self(prompt)
        out = [prompt]
        for _ in range(steps):
            nxt = logits[:, -1:].argmax(-1)
            out.append(nxt)
            logits, caches = self(nxt, caches)
        return torch.cat(out, dim=1)
