# case: b56-10-clean
# modelled-on: lpkphd/mosaic-gpt https://github.com/lpkphd/mosaic-gpt/commit/34f322b88eb969946579326d1e3bba049aa5da37
# label: correct
# class: clean
# pattern: grouped-query attention of a small modular GPT on F.scaled_dot_product_attention: keys and values have fewer heads and are joined with the (key, value) pair the caller passes as a cache along the time axis, expanded to the query heads with unsqueeze/expand/reshape, and SDPA gets is_causal=(kv_cache is None); the joined pair is returned as the new cache
# why: correct: without a cache is_causal=True covers T queries over the same T keys, which is the causal mask; with a cache the flag is False, and the function hands its keys back to the caller; the repository never passes a cache with more than one new token (the model's forward passes none unless asked), and a single new token may see every cached key; the expansion repeats each kv head for its group of query heads along a new axis before merging it into the head axis, so heads line up; SDPA applies its default 1/sqrt(head_dim) scale; dropout is active only in training
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/lpkphd/mosaic-gpt https://github.com/lpkphd/mosaic-gpt/commit/34f322b88eb969946579326d1e3bba049aa5da37 mosaic/attention/gqa.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def rope_tables(dim: int, n: int, start: int, device):
    inv = 1.0 / (10000.0 ** (torch.arange(0, dim, 2, device=device).float() / dim))
    t = torch.arange(start, start + n, device=device).float()
    f = torch.cat([torch.outer(t, inv)] * 2, dim=-1)
    return f.cos(), f.sin()


def apply_rope(x, cos, sin):
    lo, hi = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-hi, lo), dim=-1) * sin


class GroupedQueryAttention(nn.Module):
    """n_heads query heads share n_kv_heads key/value heads (n_kv_heads = 1 is multi-query)."""

    def __init__(self, width: int, n_heads: int, n_kv_heads: Optional[int] = None, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv = n_kv_heads or n_heads
        self.head_dim = width // n_heads
        self.per_group = n_heads // self.n_kv
        self.to_q = nn.Linear(width, n_heads * self.head_dim, bias=False)
        self.to_k = nn.Linear(width, self.n_kv * self.head_dim, bias=False)
        self.to_v = nn.Linear(width, self.n_kv * self.head_dim, bias=False)
        self.to_out = nn.Linear(width, width, bias=False)
        self.p = dropout

    def widen(self, t: torch.Tensor) -> torch.Tensor:
        if self.per_group == 1:
            return t
        b, g, n, d = t.shape
        return t[:, :, None].expand(b, g, self.per_group, n, d).reshape(b, self.n_heads, n, d)

    def forward(self, x: torch.Tensor, kv_cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None):
        b, n, c = x.shape
        q = self.to_q(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.to_k(x).view(b, n, self.n_kv, self.head_dim).transpose(1, 2)
        v = self.to_v(x).view(b, n, self.n_kv, self.head_dim).transpose(1, 2)

        start = 0 if kv_cache is None else kv_cache[0].shape[2]
        cos, sin = rope_tables(self.head_dim, n, start, x.device)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)

        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)
            v = torch.cat([kv_cache[1], v], dim=2)
        new_cache = (k, v)

        out = F.scaled_dot_product_attention(
            q, self.widen(k), self.widen(v),
            is_causal=(kv_cache is None),
            dropout_p=self.p if self.training else 0.0,
        )
        return self.to_out(out.transpose(1, 2).contiguous().view(b, n, c)), new_cache


class Block(nn.Module):
    def __init__(self, width: int, n_heads: int, n_kv_heads: int):
        super().__init__()
        self.norm1 = nn.RMSNorm(width)
        self.attn = GroupedQueryAttention(width, n_heads, n_kv_heads)
        self.norm2 = nn.RMSNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x, kv_cache=None):
        a, cache = self.attn(self.norm1(x), kv_cache=kv_cache)
        x = x + a
        return x + self.mlp(self.norm2(x)), cache
