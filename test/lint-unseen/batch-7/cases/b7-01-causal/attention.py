# case: b7-01-causal
# modelled-on: 2lar/gpt2 https://github.com/2lar/gpt2/commit/495966dcfe5f050d18e30422ec3f45636d420839
# label: buggy
# class: real-bug
# pattern: a "modern" GPT teaching repository's grouped-query attention with RoPE and a KV cache for inference: the cached keys and values are concatenated in front of the new ones, the KV heads are repeated, then SDPA is called with is_causal=True (a manual fallback builds tril(ones(T_q, T_k))); the generation loop in another module feeds the prompt once and then one token per step with the returned caches
# why: buggy: SDPA's is_causal=True and tril(ones(T_q, T_k)) are aligned top-left (PyTorch documents the causal mask as tril over (L, S)), so with T_q new queries after past_T cached keys query i sees keys 0..i only; in a one-token decoding step the new token attends to the first cached token alone. No fix was found; the label rests on PyTorch's documented alignment and on the module's own docstring (the cache is for generating one token at a time). The real module rotates the new keys at positions 0..T-1 even after a cache (a second defect); the case passes the cache length as the rotary offset
# source: https://github.com/2lar/gpt2 https://github.com/2lar/gpt2/commit/495966dcfe5f050d18e30422ec3f45636d420839 gpt/attention.py
"""Grouped-query attention with rotary embeddings and a KV cache for fast generation."""
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Rotary(nn.Module):
    def __init__(self, head_dim: int, max_len: int = 2048, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        t = torch.arange(max_len).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos()[None, None], persistent=False)
        self.register_buffer("sin", emb.sin()[None, None], persistent=False)

    @staticmethod
    def _half(x):
        a, b = x.chunk(2, dim=-1)
        return torch.cat((-b, a), dim=-1)

    def forward(self, q, k, offset: int = 0):
        T = q.size(2)
        cos = self.cos[:, :, offset : offset + T]
        sin = self.sin[:, :, offset : offset + T]
        return q * cos + self._half(q) * sin, k * cos + self._half(k) * sin


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    # (B, n_kv, T, hd) -> (B, n_kv * n_rep, T, hd)
    if n_rep == 1:
        return x
    b, h, t, d = x.shape
    return x[:, :, None].expand(b, h, n_rep, t, d).reshape(b, h * n_rep, t, d)


class GroupedQueryAttention(nn.Module):
    """GQA: n_head query heads share n_kv_head key/value heads; only those are cached at inference."""

    def __init__(self, n_embd: int, n_head: int, n_kv_head: int, dropout: float = 0.0):
        super().__init__()
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.n_rep = n_head // n_kv_head
        self.head_dim = n_embd // n_head
        self.q_proj = nn.Linear(n_embd, n_head * self.head_dim, bias=False)
        self.kv_proj = nn.Linear(n_embd, 2 * n_kv_head * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.rotary = Rotary(self.head_dim)
        self.dropout_p = dropout
        self.flash = hasattr(F, "scaled_dot_product_attention")

    def forward(
        self, x: torch.Tensor, kv_cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None, use_cache: bool = False
    ):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)  # (B, nh, T, hd)
        k, v = self.kv_proj(x).split(self.n_kv_head * self.head_dim, dim=-1)
        k = k.view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)  # (B, nkv, T, hd)
        v = v.view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)

        past_T = 0 if kv_cache is None else kv_cache[0].size(2)
        q, k = self.rotary(q, k, offset=past_T)

        if kv_cache is not None:
            past_k, past_v = kv_cache
            k = torch.cat([past_k, k], dim=2)  # (B, nkv, past_T + T, hd)
            v = torch.cat([past_v, v], dim=2)
        new_cache = (k, v) if use_cache else None

        k = repeat_kv(k, self.n_rep)
        v = repeat_kv(v, self.n_rep)

        if self.flash:
            y = F.scaled_dot_product_attention(
                q, k, v,
                is_causal=True,  # expect: ATT008
                dropout_p=self.dropout_p if self.training else 0.0,
            )
        else:
            att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, nh, T_q, T_k)
            T_q, T_k = q.size(2), k.size(2)
            causal_mask = torch.tril(torch.ones(T_q, T_k, device=x.device)).view(1, 1, T_q, T_k)
            att = att.masked_fill(causal_mask == 0, float("-inf"))  # expect: ATT008
            att = F.softmax(att, dim=-1)
            y = att @ v

        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.o_proj(y), new_cache
