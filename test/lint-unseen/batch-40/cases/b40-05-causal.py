# case: b40-05-causal
# modelled-on: Khan-Ramsha/FinetuneX https://github.com/Khan-Ramsha/FinetuneX/commit/2d64a804230342f16de0c8c6b95d3daeacaaac5d
# label: buggy
# class: real-bug
# pattern: grouped-query self-attention of a from-scratch causal language model with a KV cache passed in and handed back as a (keys, values) pair: the new keys and values are concatenated after the cached ones along the sequence axis, the key/value heads are repeated to the query heads, the scores are q k^T / sqrt(head_dim), a causal mask is built as a lower triangle over (query length, key length) and filled with -inf, then softmax over the keys and the weighted values
# why: buggy: torch.tril over a (queries, keys) rectangle is aligned top-left, so with cached keys query i may only see keys 0..i: in a one-token decoding step (one query, n cached keys) the new token attends to the first token of the prompt alone, and a multi-token step sees the start of the cache instead of its own past; the commit's own message says the mask is meant for use with KV caching, and the author's next commit (5f74e09) replaces it by SDPA with is_causal only when there are several queries and no cache-derived mask. (The source passes device= and dtype= to tril, which raises; the case passes them to ones, so the code runs and computes the misaligned mask.)
# source: https://github.com/Khan-Ramsha/FinetuneX https://github.com/Khan-Ramsha/FinetuneX/commit/5f74e0997e324a6041eab36463ce5f0950dbd7cf modules/attention.py
"""Grouped-query attention with key/value caching for generation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    def __init__(self, dim, n_q_heads, n_kv_heads):
        super().__init__()
        self.dim = dim
        self.n_q_heads = n_q_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = dim // n_q_heads
        assert self.head_dim * n_q_heads == dim
        self.query = nn.Linear(dim, self.head_dim * n_q_heads, bias=True)
        self.key = nn.Linear(dim, self.head_dim * n_kv_heads, bias=True)
        self.value = nn.Linear(dim, self.head_dim * n_kv_heads, bias=True)
        self.proj = nn.Linear(self.head_dim * n_q_heads, dim, bias=False)

    def _shape(self, t, heads):
        batch = t.shape[0]
        return t.view(batch, -1, heads, self.head_dim).transpose(1, 2)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        q = self._shape(self.query(x), self.n_q_heads)
        k = self._shape(self.key(x), self.n_kv_heads)
        v = self._shape(self.value(x), self.n_kv_heads)

        if cache is not None:
            cached_k, cached_v = cache
            k = torch.cat((cached_k, k), dim=2)
            v = torch.cat((cached_v, v), dim=2)
        new_cache = (k, v)  # becomes `cache` of the next call

        group = self.n_q_heads // self.n_kv_heads
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)

        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        n_queries, n_keys = q.size(-2), k.size(-2)
        causal = torch.tril(torch.ones(n_queries, n_keys, device=scores.device, dtype=scores.dtype))
        causal = causal.unsqueeze(0).unsqueeze(0)
        scores = scores.masked_fill_(causal == 0, float("-inf"))  # expect: ATT008
        probs = F.softmax(scores, dim=-1)
        out = (probs @ v).transpose(1, 2).contiguous().view(B, T, D)
        return self.proj(out), new_cache
