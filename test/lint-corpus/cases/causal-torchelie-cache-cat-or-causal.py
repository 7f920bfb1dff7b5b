# case: causal-torchelie-cache-cat-or-causal
# modelled-on: Vermeille/Torchelie https://github.com/Vermeille/Torchelie/commit/866bda6aab91b4bfad340d2de83d749e35def588
# label: buggy
# pattern: a rotary self-attention layer takes an optional list cache, joins the cached keys/values in front of the new ones with torch.cat on cache[0]/cache[1], writes them back with kv_cache[:] = [k, v], and asks SDPA for is_causal=kv_cache is not None or self.causal
# why: with a cache the keys are longer than the queries, and SDPA's is_causal is top-left aligned: a decode step of one query sees only the first cached key instead of the whole prefix, so generation with the cache diverges from the uncached forward
import math

import torch
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    def __init__(self, dim: int, base: float = 10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)))

    def rotate(self, x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, dim=-1)
        return torch.cat((-b, a), dim=-1)

    def forward(self, q, k, v):
        t = torch.arange(k.shape[-2], device=k.device).type_as(self.inv_freq)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)  # (S, d)
        cos, sin = emb.cos(), emb.sin()
        q_cos, q_sin = cos[-q.shape[-2]:], sin[-q.shape[-2]:]
        return q * q_cos + self.rotate(q) * q_sin, k * cos + self.rotate(k) * sin, v


class CachedSelfAttention(nn.Module):
    """Self-attention over (b, l, hidden); kv_cache is a two-item list [k, v] filled during generation."""

    def __init__(self, hidden_size: int, num_heads: int, head_size: int, causal: bool = True):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = head_size
        self.qkv = nn.Linear(hidden_size, 3 * num_heads * head_size, bias=False)
        nn.init.normal_(self.qkv.weight, std=math.sqrt(2 / (5 * hidden_size)))
        self.out = nn.Linear(num_heads * head_size, hidden_size, bias=False)
        self.rotary = RotaryEmbedding(head_size)
        self.causal = causal

    def forward(self, x: torch.Tensor, kv_cache=None) -> torch.Tensor:
        b, l, h, d = x.shape[0], x.shape[1], self.num_heads, self.head_size
        qkv = self.qkv(x).reshape(b, l, 3, h, d).permute(2, 0, 3, 1, 4)  # (3, b, h, l, d)
        q, k, v = qkv[0], qkv[1], qkv[2]
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)  # (b, h, s, d), s >= l
            v = torch.cat([kv_cache[1], v], dim=2)
            kv_cache[:] = [k, v]
        q, k, v = self.rotary(q, k, v)
        att = nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=kv_cache is not None or self.causal)  # expect: ATT008
        att = att.permute(0, 2, 1, 3).contiguous().reshape(b, l, h * d)  # (b, l, h*d)
        return self.out(att)
