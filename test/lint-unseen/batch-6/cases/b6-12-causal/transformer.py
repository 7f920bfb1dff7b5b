# case: b6-12-causal
# modelled-on: emadnahed/custom-gpt-from-scratch https://github.com/emadnahed/custom-gpt-from-scratch/commit/0a08acb7180747ddd0351c210430ace2601b326f
# label: buggy
# class: real-bug
# pattern: a modern small GPT (RoPE, grouped-query attention with repeat_interleave, SwiGLU) whose attention module advertises a KV cache for generation: with use_cache it concatenates the cached keys and values in front of the new ones and then calls SDPA with attn_mask=None and is_causal=True; a manual fallback slices a tril buffer to (T, T); the sampling loop in another module feeds the prompt once and then one token per step with the returned caches
# why: buggy: SDPA's is_causal=True builds a top-left aligned causal mask (PyTorch documents it as tril over (L, S)), so with L new queries after S - L cached keys query i sees only keys 0..i; in a one-token decoding step the new token attends to the first cached token alone; the cached path needs is_causal=False for one query, or a bottom-right mask. No fix was found (the repository's own generate re-runs the whole prefix and never passes a cache; the case's sampling loop uses the cache as the module's docstring advertises); the label rests on PyTorch's documented alignment of is_causal
# source: https://github.com/emadnahed/custom-gpt-from-scratch https://github.com/emadnahed/custom-gpt-from-scratch/commit/0a08acb7180747ddd0351c210430ace2601b326f gpt_from_scratch/model/transformer.py
"""GPT with RoPE, grouped-query attention and a KV cache for efficient generation."""
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim, max_len, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(max_len).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos()[None, None], persistent=False)
        self.register_buffer("sin", emb.sin()[None, None], persistent=False)

    def forward(self, q, k, offset=0):
        T = q.shape[-2]
        cos, sin = self.cos[:, :, offset : offset + T], self.sin[:, :, offset : offset + T]
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, n_kv_head, block_size, dropout=0.0):
        super().__init__()
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.head_dim = n_embd // n_head
        self.n_rep = n_head // n_kv_head
        self.dropout = dropout
        self.q_proj = nn.Linear(n_embd, n_head * self.head_dim, bias=False)
        self.k_proj = nn.Linear(n_embd, n_kv_head * self.head_dim, bias=False)
        self.v_proj = nn.Linear(n_embd, n_kv_head * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.rotary_emb = RotaryEmbedding(self.head_dim, block_size)
        self.flash = hasattr(F, "scaled_dot_product_attention")
        if not self.flash:
            self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size), persistent=False)

    def forward(self, x, use_cache: bool = False, cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None):
        B, T, C = x.size()
        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)  # (B, nh, T, hd)
        k = self.k_proj(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)  # (B, nkv, T, hd)
        v = self.v_proj(x).view(B, T, self.n_kv_head, self.head_dim).transpose(1, 2)
        past = cache[0].shape[2] if cache is not None else 0
        q, k = self.rotary_emb(q, k, offset=past)

        if use_cache:
            if cache is not None:
                k_cache, v_cache = cache
                k = torch.cat([k_cache, k], dim=2)  # (B, nkv, past + T, hd)
                v = torch.cat([v_cache, v], dim=2)
            new_cache = (k, v)
        else:
            new_cache = None

        if self.n_rep > 1:
            k = k.repeat_interleave(self.n_rep, dim=1)
            v = v.repeat_interleave(self.n_rep, dim=1)

        if self.flash:
            y = F.scaled_dot_product_attention(
                q,
                k,
                v,
                attn_mask=None,
                dropout_p=self.dropout if self.training else 0.0,
                is_causal=True,  # expect: ATT008
            )
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
            y = F.softmax(att, dim=-1) @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.o_proj(y), new_cache


class Block(nn.Module):
    def __init__(self, n_embd, n_head, n_kv_head, block_size):
        super().__init__()
        self.ln_1 = nn.RMSNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, n_kv_head, block_size)
        self.ln_2 = nn.RMSNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd, bias=False), nn.SiLU(), nn.Linear(4 * n_embd, n_embd, bias=False))

    def forward(self, x, use_cache=False, cache=None):
        attn_out, new_cache = self.attn(self.ln_1(x), use_cache=use_cache, cache=cache)
        x = x + attn_out
        return x + self.mlp(self.ln_2(x)), new_cache


class GPT(nn.Module):
    def __init__(self, vocab_size, n_embd=384, n_head=6, n_kv_head=2, n_layer=6, block_size=256):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, n_kv_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.RMSNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, use_cache=False, caches=None):
        x = self.wte(idx)
        new_caches = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, use_cache=use_cache, cache=None if caches is None else caches[i])
            new_caches.append(c)
        return self.lm_head(self.ln_f(x)), (new_caches if use_cache else None)
