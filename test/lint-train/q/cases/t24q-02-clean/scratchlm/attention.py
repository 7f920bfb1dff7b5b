# case: t24q-02-clean
# modelled-on: vossenwout/llm-from-scratch https://github.com/vossenwout/llm-from-scratch/commit/5b3fc072001621255a0efdd892c5c24e26f2f07c
# label: correct
# class: clean
# pattern: a decoder attention with a preallocated key/value cache in another module: a bool triu(diagonal=1) buffer of context_length x context_length; without the cache the mask is buffer[:T, :T]; with it the new keys are written at start_pos, all keys up to start_pos + T are read back, and the mask is the row block buffer[start_pos : start_pos + T, : start_pos + T]; scores q @ k.transpose(-2, -1) / math.sqrt(head_dim), masked_fill(mask, -inf), softmax(dim=-1)
# why: correct: the buffer is True above the diagonal (a future key) and masked_fill fills True; slicing its rows from start_pos gives each new query at absolute position start_pos + i the keys 0 .. start_pos + i, i.e. the bottom-right-aligned causal mask a cached prefill or decode step needs (for one new token it is an all-False row: every cached key is visible); no row is fully masked, so -inf is safe
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/vossenwout/llm-from-scratch https://github.com/vossenwout/llm-from-scratch/commit/5b3fc072001621255a0efdd892c5c24e26f2f07c src/llm_from_scratch/transformer.py
import math

import torch
from torch import Tensor
from torch.nn import Linear, Module

from scratchlm.kv_cache import ContiguousKVCache


class CachedSelfAttention(Module):
    mask: Tensor

    def __init__(self, embedding_dim: int, heads: int, context_length: int, masked: bool = True):
        super().__init__()
        assert embedding_dim % heads == 0
        self.heads = heads
        self.head_dim = embedding_dim // heads
        self.wq = Linear(embedding_dim, embedding_dim, bias=False)
        self.wk = Linear(embedding_dim, embedding_dim, bias=False)
        self.wv = Linear(embedding_dim, embedding_dim, bias=False)
        self.wo = Linear(embedding_dim, embedding_dim)
        self.masked = masked
        self.register_buffer("mask", torch.ones(context_length, context_length, dtype=torch.bool).triu(diagonal=1))

    def _split(self, x: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        B, T, _ = x.shape
        q, k, v = self.wq(x), self.wk(x), self.wv(x)
        # B x T x C -> B x h x T x d
        return tuple(t.reshape(B, T, self.heads, self.head_dim).transpose(1, 2) for t in (q, k, v))

    def _attend(self, q: Tensor, k: Tensor, v: Tensor, blocked: Tensor | None) -> Tensor:
        scores = q @ k.transpose(-2, -1)
        scores = scores / math.sqrt(self.head_dim)
        if blocked is not None:
            scores = scores.masked_fill(blocked, float("-inf"))
        return scores.softmax(dim=-1) @ v

    def forward(
        self,
        x: Tensor,
        layer_idx: int = 0,
        kv_cache: ContiguousKVCache | None = None,
        start_positions: Tensor | None = None,
        use_cache: bool = False,
    ) -> Tensor:
        B, T, C = x.shape
        if use_cache:
            if kv_cache is None or start_positions is None:
                raise ValueError("use_cache needs a kv_cache and start_positions")
            start_pos = int(start_positions[0].item())
            q, k_new, v_new = self._split(x)
            kv_cache.write(layer_idx, k_new, v_new, start_positions)
            k, v = kv_cache.read(layer_idx, start_positions + T)
            blocked = self.mask[start_pos : start_pos + T, : start_pos + T] if self.masked else None
            out = self._attend(q, k, v, blocked)
        else:
            q, k, v = self._split(x)
            blocked = self.mask[:T, :T] if self.masked else None
            out = self._attend(q, k, v, blocked)
        return self.wo(out.transpose(1, 2).reshape(B, T, C))
