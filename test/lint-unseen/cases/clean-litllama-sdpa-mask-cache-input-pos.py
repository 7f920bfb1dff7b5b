# case: clean-litllama-sdpa-mask-cache-input-pos
# modelled-on: Lightning-AI/lit-llama https://github.com/Lightning-AI/lit-llama/pull/266
# label: correct
# class: clean
# pattern: a KV-cache decoder: the model builds a boolean tril mask cache once, selects the rows of the current positions with index_select(2, input_pos) and crops it to max_seq_length, and passes it down to the attention, which writes the new keys into a preallocated cache with index_copy and calls SDPA with attn_mask=mask and no is_causal
# why: SDPA's boolean attn_mask means True = attend and tril(ones) is True on and below the diagonal; the rows selected by input_pos align each new query with its absolute position in the cache, so a single decode query sees every cached key and a multi-token prefill stays causal
# looks-like: ATT002, ATT008
# source: https://github.com/Lightning-AI/lit-llama https://github.com/Lightning-AI/lit-llama/commit/2a464de2a1d2f266614d15091d3d7f30330c3ede lit_llama/model.py
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
from torch.nn import functional as F

MaskCache = torch.Tensor
KVCache = Tuple[torch.Tensor, torch.Tensor]


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int) -> None:
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x: torch.Tensor, mask: MaskCache, max_seq_length: int,
                input_pos: Optional[torch.Tensor] = None, kv_cache: Optional[KVCache] = None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        head_size = C // self.n_head
        k = k.view(B, T, self.n_head, head_size).transpose(1, 2)  # (B, nh, T, hs)
        q = q.view(B, T, self.n_head, head_size).transpose(1, 2)  # (B, nh, T, hs)
        v = v.view(B, T, self.n_head, head_size).transpose(1, 2)  # (B, nh, T, hs)

        if kv_cache is not None:
            cache_k, cache_v = kv_cache
            if input_pos[-1] >= max_seq_length:
                input_pos = torch.tensor(max_seq_length - 1, device=input_pos.device)
                cache_k = torch.roll(cache_k, -1, dims=2)
                cache_v = torch.roll(cache_v, -1, dims=2)
            k = cache_k.index_copy(2, input_pos, k)
            v = cache_v.index_copy(2, input_pos, v)
            kv_cache = k, v

        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=0.0)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), kv_cache


class LLaMA(nn.Module):
    def __init__(self, vocab_size: int, n_layer: int, n_embd: int, n_head: int, block_size: int) -> None:
        super().__init__()
        self.block_size = block_size
        self.n_head = n_head
        self.n_embd = n_embd
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.h = nn.ModuleList(CausalSelfAttention(n_embd, n_head) for _ in range(n_layer))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.mask_cache: Optional[MaskCache] = None
        self.kv_caches: List[KVCache] = []

    def build_mask_cache(self, idx: torch.Tensor) -> MaskCache:
        ones = torch.ones((self.block_size, self.block_size), device=idx.device, dtype=torch.bool)
        return torch.tril(ones).unsqueeze(0).unsqueeze(0)

    def forward(self, idx: torch.Tensor, max_seq_length: Optional[int] = None, input_pos: Optional[torch.Tensor] = None):
        B, T = idx.size()
        if max_seq_length is None:
            max_seq_length = self.block_size
        if self.mask_cache is None:
            self.mask_cache = self.build_mask_cache(idx)

        if input_pos is not None:
            mask = self.mask_cache.index_select(2, input_pos)
            mask = mask[:, :, :, :max_seq_length]
        else:
            mask = self.mask_cache[:, :, :T, :T]

        x = self.wte(idx)
        if input_pos is None:
            for block in self.h:
                x = x + block(x, mask, max_seq_length)[0]
        else:
            if not self.kv_caches:
                cache_shape = (B, self.n_head, max_seq_length, self.n_embd // self.n_head)
                self.kv_caches = [(torch.zeros(cache_shape, device=x.device, dtype=x.dtype),
                                   torch.zeros(cache_shape, device=x.device, dtype=x.dtype)) for _ in self.h]
            for i, block in enumerate(self.h):
                out, self.kv_caches[i] = block(x, mask, max_seq_length, input_pos, self.kv_caches[i])
                x = x + out
        return self.lm_head(x)
