# case: t20m-05-clean
# modelled-on: knowlytix/llm-from-scratch https://github.com/knowlytix/llm-from-scratch/commit/9434f6bf5036f94e6b4600ff43d8d3b038307826
# label: correct
# class: clean
# pattern: a book's tiny causal LM with a hand-written KV cache: the attention helper adds an additive mask (0 / -inf) to q @ k^T / sqrt(d_k) before a dim=-1 softmax; the causal mask is zeros with -inf written on triu(ones, diagonal=1); the cached forward concatenates past K/V and applies the causal mask only when there is no past and T > 1 (prefill), passing mask=None otherwise; the inference engine (engine.py) prefills the prompt without a cache and then decodes one token per step
# why: correct: the mask hides exactly the future keys and keeps the diagonal, so no row is all -inf; a single new query attends to every cached key plus itself, which is causal without a mask; the engine never calls the cached forward with a past and more than one new token, the case where dropping the mask would be wrong
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/knowlytix/llm-from-scratch https://github.com/knowlytix/llm-from-scratch/commit/9434f6bf5036f94e6b4600ff43d8d3b038307826 llm_from_scratch/models/attention.py
from __future__ import annotations

import math

import torch
import torch.nn as nn


def attend(q, k, v, mask: torch.Tensor | None = None):
    """mask: additive, broadcastable to (..., Tq, Tk); -inf where a key is blocked."""
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ v


def causal_mask(block_size: int, device=None, dtype=torch.float32) -> torch.Tensor:
    mask = torch.zeros(block_size, block_size, dtype=dtype, device=device)
    return mask.masked_fill(torch.triu(torch.ones(block_size, block_size, dtype=torch.bool, device=device), diagonal=1), float("-inf"))


class CausalMHA(nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, block_size: int):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.qkv_proj = nn.Linear(embedding_dim, 3 * embedding_dim, bias=False)
        self.out_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.register_buffer("mask", causal_mask(block_size), persistent=False)

    def _split(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv_proj(x).chunk(3, dim=-1)
        shape = (B, T, self.num_heads, self.head_dim)
        return q.view(shape).transpose(1, 2), k.view(shape).transpose(1, 2), v.view(shape).transpose(1, 2)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self._split(x)
        out = attend(q, k, v, mask=self.mask[:T, :T])
        return self.out_proj(out.transpose(1, 2).contiguous().view(B, T, D))

    def forward_with_cache(self, x, past_k=None, past_v=None):
        B, T, D = x.shape
        q, k, v = self._split(x)
        if past_k is not None:
            k = torch.cat([past_k, k], dim=-2)
            v = torch.cat([past_v, v], dim=-2)
        # prefill (no past, several tokens): causal mask over T; a decode step needs none
        mask = self.mask[:T, :T] if (past_k is None and T > 1) else None
        out = attend(q, k, v, mask=mask)
        return self.out_proj(out.transpose(1, 2).contiguous().view(B, T, D)), k, v
