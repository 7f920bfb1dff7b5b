# case: b27-13-causal
# modelled-on: borangundogan/miniGPT-HPC https://github.com/borangundogan/miniGPT-HPC/commit/044368aa1167987b8d6b4e74a2c2cc8a0b5e5281
# label: buggy
# class: real-bug
# pattern: a small GPT for HPC experiments with grouped-query attention and a rolling KV cache with attention sinks kept in another module: the attention layer receives the layer's cached (k, v) as a tuple, concatenates the new keys and values after them, and calls F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True) in a try block, with a hand-written fallback in except that builds the causal mask j <= Tprev + i; generate() in a third module prefills with the prompt and then feeds one token at a time with the cache
# why: buggy: after the prompt, every call has one query and Tprev + 1 keys; SDPA's is_causal=True builds an upper-left aligned tril(ones(L, S)), so the single new query may attend only to key 0 instead of every cached key; the SDPA call does not raise, so the offset-aware fallback (j <= Tprev + i, which would be right) never runs. is_causal has to be off (or the fallback's mask passed as attn_mask) whenever the cache holds earlier tokens. The scale, the head split and the cache concatenation are right
# source: https://github.com/borangundogan/miniGPT-HPC https://github.com/borangundogan/miniGPT-HPC/commit/044368aa1167987b8d6b4e74a2c2cc8a0b5e5281 src/llm/layers.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int, n_kv_head: Optional[int] = None, dropout: float = 0.0, bias: bool = False):
        super().__init__()
        self.n_head = n_head
        self.n_kv_head = n_kv_head or n_head
        assert self.n_head % self.n_kv_head == 0
        self.d_head = d_model // n_head
        self.q_proj = nn.Linear(d_model, n_head * self.d_head, bias=bias)
        self.k_proj = nn.Linear(d_model, self.n_kv_head * self.d_head, bias=bias)
        self.v_proj = nn.Linear(d_model, self.n_kv_head * self.d_head, bias=bias)
        self.proj = nn.Linear(d_model, d_model, bias=bias)
        self.attn_drop = nn.Dropout(dropout)

    def forward(self, x, kv_cache=None):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, self.d_head)
        k = self.k_proj(x).view(B, T, self.n_kv_head, self.d_head)
        v = self.v_proj(x).view(B, T, self.n_kv_head, self.d_head)

        Tprev = 0
        if kv_cache is not None and isinstance(kv_cache, tuple):
            k_prev, v_prev = kv_cache  # (B, H, Tprev, D) from the cache
            k_prev, v_prev = k_prev.permute(0, 2, 1, 3), v_prev.permute(0, 2, 1, 3)
            Tprev = k_prev.size(1)
            k = torch.cat([k_prev, k], dim=1)
            v = torch.cat([v_prev, v], dim=1)

        k_cache, v_cache = k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        if self.n_kv_head < self.n_head:
            rep = self.n_head // self.n_kv_head
            k = k.repeat_interleave(rep, dim=1)
            v = v.repeat_interleave(rep, dim=1)

        try:
            attn = F.scaled_dot_product_attention(
                q, k, v,
                attn_mask=None,
                dropout_p=self.attn_drop.p if self.training else 0.0,
                is_causal=True,  # expect: ATT008
            )
        except Exception:
            scores = (q @ k.transpose(-2, -1)) / (q.size(-1) ** 0.5)
            i = torch.arange(scores.size(-2), device=x.device).unsqueeze(1)
            j = torch.arange(scores.size(-1), device=x.device).unsqueeze(0)
            causal = j <= (Tprev + i)
            scores = scores.masked_fill(~causal, float("-inf"))
            attn = torch.softmax(scores, dim=-1) @ v

        attn = attn.transpose(1, 2).contiguous().view(B, T, -1)
        return self.proj(attn), (k_cache, v_cache)
