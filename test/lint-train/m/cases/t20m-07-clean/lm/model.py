# case: t20m-07-clean
# modelled-on: jerrysjoseph/self-attention-implementation https://github.com/jerrysjoseph/self-attention-implementation/commit/e090eda5b95cf3388ed66d519f2c34fcda7513f3
# label: correct
# class: clean
# pattern: a from-scratch LLM (RoPE, SwiGLU) whose attention takes an optional per-layer KV cache: the cached keys and values are concatenated in front of the new ones and the cache is handed back; the SDPA path passes is_causal = cache is None ("only causal for prefill, not for cached generation"), the manual fallback fills triu(ones, diagonal=1) with -inf only when cache is None; the generator (generate.py) runs the prompt once without a cache and then feeds only the last token with the cache
# why: correct: causal masking is on for the prompt, which is always run without a cache, and off for the decode steps, where the single query may see every cached key and itself; the one call pattern that would break this (a cache plus several new tokens) never occurs; the scale is head_dim ** -0.5 in the fallback and SDPA's default otherwise. (The repository's generator is the MLX port of this model; the case writes it in PyTorch.)
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/jerrysjoseph/self-attention-implementation https://github.com/jerrysjoseph/self-attention-implementation/commit/e090eda5b95cf3388ed66d519f2c34fcda7513f3 src/model_torch.py
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedAttention(nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, dropout: float = 0.0):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.scale = self.head_dim**-0.5
        self.q_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.k_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.v_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.out_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None, use_cache: bool = False):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        new_cache = (k, v) if use_cache else None

        if hasattr(F, "scaled_dot_product_attention"):
            is_causal = cache is None  # causal for the prompt, not for cached decoding
            out = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout.p if self.training else 0.0, is_causal=is_causal)
        else:
            scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
            if cache is None:
                future = torch.triu(torch.ones(t, t, dtype=torch.bool, device=x.device), diagonal=1)
                scores = scores.masked_fill(future, float("-inf"))
            out = torch.matmul(self.dropout(F.softmax(scores, dim=-1)), v)

        out = out.transpose(1, 2).contiguous().view(b, t, -1)
        return self.out_proj(out), new_cache


class TinyLM(nn.Module):
    def __init__(self, vocab_size: int, embedding_dim: int = 512, num_heads: int = 8, num_layers: int = 8):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embedding_dim)
        self.layers = nn.ModuleList([CachedAttention(embedding_dim, num_heads) for _ in range(num_layers)])
        self.norm = nn.LayerNorm(embedding_dim)
        self.head = nn.Linear(embedding_dim, vocab_size, bias=False)

    def forward(self, input_ids, cache=None, use_cache=False):
        x = self.embed(input_ids)
        new_cache = [] if use_cache else None
        for i, layer in enumerate(self.layers):
            h, layer_cache = layer(x, cache[i] if cache is not None else None, use_cache)
            x = x + h
            if use_cache:
                new_cache.append(layer_cache)
        return self.head(self.norm(x)), new_cache
