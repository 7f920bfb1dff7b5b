# case: b4-16-clean
# modelled-on: cyyueyang/llama-from-scratch https://github.com/cyyueyang/llama-from-scratch/commit/49a6b8ecd05a8fa0af720c2d82decaf266dc7f3e
# label: correct
# class: clean
# pattern: a LLaMA-style grouped-query attention with rotary embeddings and a KV cache in another module (inference/kv_cache.py, returning the keys up to start + n); a bool tril buffer of the maximum length is registered in __init__ and sliced at rows start..start+n and columns :start+n, inverted with `~` and filled with -1e20 before a float softmax
# why: correct: the buffer is True where attention is allowed, `~` selects the future, and slicing its rows from the start position aligns the causal mask with the cached keys (bottom-right) for prefill and for decoding; the KV heads are repeated to the query heads before the scores
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/cyyueyang/llama-from-scratch https://github.com/cyyueyang/llama-from-scratch/commit/49a6b8ecd05a8fa0af720c2d82decaf266dc7f3e src/model/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from llm.inference.kv_cache import KVCache


class GroupedAttention(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, max_len, rope, layer=0):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = d_model // n_heads
        self.group = n_heads // n_kv_heads
        self.rope = rope
        self.layer = layer
        self.qkv = nn.Linear(d_model, self.head_dim * (n_heads + 2 * n_kv_heads))
        self.out = nn.Linear(d_model, d_model)
        self.register_buffer("allowed", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)))

    @staticmethod
    def repeat(t, n):
        # (bs, kv_heads, s, hd) -> (bs, kv_heads * n, s, hd)
        return t if n == 1 else t.repeat_interleave(n, dim=1)

    def forward(self, x, start=0, cache: KVCache = None):
        if cache is None:
            assert start == 0
        bs, n, _ = x.shape
        q, k, v = self.qkv(x).split(
            [self.head_dim * self.n_heads, self.head_dim * self.n_kv_heads, self.head_dim * self.n_kv_heads], dim=-1
        )
        q = q.view(bs, n, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(bs, n, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = v.view(bs, n, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q = self.rope(q, start)
        k = self.rope(k, start)
        if cache is not None:
            k, v = cache.update(self.layer, start, k, v)  # (bs, kv_heads, start + n, hd)
        k = self.repeat(k, self.group)
        v = self.repeat(v, self.group)

        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)  # (bs, h, n, start + n)
        allowed = self.allowed[None, None, start : start + n, : start + n]
        scores = scores.masked_fill(~allowed, -1e20)
        attn = F.softmax(scores, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(bs, n, -1)
        return self.out(out)
