# case: t44ff-15-clean
# modelled-on: Casten-Wang/nano-vllm https://github.com/Casten-Wang/nano-vllm/commit/3db4b6e3f9f6a83e17a4d0cd646f91363c8db882
# label: correct
# class: clean
# pattern: a paged-KV serving engine's attention layer: the new keys are stored into the block cache through a slot mapping, the prefill runs flash-attn's varlen kernel with `causal=True` over packed sequences (over the cached blocks when a prefix cache hit gives block tables), and each decode step calls `flash_attn_with_kvcache` for one query per sequence with `causal=True` and the cache lengths; the per-step context (another module) says which phase runs
# why: correct: flash-attn aligns its causal mask bottom-right (since 2.1), so with a prefix cache the new queries see every cached key and their own past, and a single decode query sees the whole cache; no SDPA `is_causal` (top-left) is involved; the scale is the layer's own softmax_scale
# looks-like: ATT008
# source: https://github.com/Casten-Wang/nano-vllm https://github.com/Casten-Wang/nano-vllm/commit/3db4b6e3f9f6a83e17a4d0cd646f91363c8db882 nanovllm/layers/attention.py
import torch
from torch import nn
from flash_attn import flash_attn_varlen_func, flash_attn_with_kvcache

from .context import current


def write_cache(k, v, k_cache, v_cache, slots):
    flat_k = k_cache.view(-1, *k_cache.shape[-2:])
    flat_v = v_cache.view(-1, *v_cache.shape[-2:])
    flat_k[slots] = k
    flat_v[slots] = v


class PagedAttention(nn.Module):
    def __init__(self, heads, head_dim, scale, kv_heads):
        super().__init__()
        self.heads = heads
        self.head_dim = head_dim
        self.scale = scale
        self.kv_heads = kv_heads
        self.k_cache = self.v_cache = torch.tensor([])

    def _window(self):
        ctx = current()
        return None if ctx.sliding_window is None else (ctx.sliding_window - 1, 0)

    def _decode(self, q, block_table, lens):
        extra = {} if self._window() is None else {"window_size": self._window()}
        out = flash_attn_with_kvcache(q.unsqueeze(1), self.k_cache, self.v_cache, cache_seqlens=lens,
                                      block_table=block_table, softmax_scale=self.scale, causal=True, **extra)
        return out.squeeze(1) if out.dim() == 4 else out

    def _prefill(self, q, k, v, ctx, block_table):
        extra = {} if self._window() is None else {"window_size": self._window()}
        return flash_attn_varlen_func(q, k, v, max_seqlen_q=ctx.max_seqlen_q, cu_seqlens_q=ctx.cu_seqlens_q,
                                      max_seqlen_k=ctx.max_seqlen_k, cu_seqlens_k=ctx.cu_seqlens_k,
                                      softmax_scale=self.scale, causal=True, block_table=block_table, **extra)

    def forward(self, q, k, v):
        ctx = current()
        if self.k_cache.numel() and self.v_cache.numel():
            write_cache(k, v, self.k_cache, self.v_cache, ctx.slot_mapping)
        if ctx.is_prefill:
            if ctx.block_tables is not None:   # prefix cache hit: attend over the cached blocks
                k, v = self.k_cache, self.v_cache
            return self._prefill(q, k, v, ctx, ctx.block_tables)
        return self._decode(q, ctx.block_tables, ctx.context_lens)
