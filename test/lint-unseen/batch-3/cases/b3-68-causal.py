# case: b3-68-causal
# modelled-on: pauljeffrey/aletheia-ng https://github.com/pauljeffrey/aletheia-ng/commit/c187fd6782c0a34b0d562b2ad6bd7389407eed5c
# label: correct
# class: fixed
# pattern: a GPT-style causal self-attention with a preallocated, lazily created KV cache written at start_pos; in inference the keys and values are read back up to start_pos + T and the queries are the T new tokens; without a custom mask it calls SDPA with is_causal=True only when start_pos == 0 and otherwise passes a boolean mask built from aranges (key index <= start_pos + query index)
# why: the corrected form of the same commit (modal/sabiyarn_optimized.py): with start_pos == 0 the queries and keys have the same length and top-left alignment is right; with cached tokens the mask lets query i (absolute position start_pos + i) see keys 0 .. start_pos + i, bottom-right aligned; True = attend, as SDPA reads boolean masks, and the diagonal is always allowed
# looks-like: ATT002, ATT008
# source: https://github.com/pauljeffrey/aletheia-ng https://github.com/pauljeffrey/aletheia-ng/commit/c187fd6782c0a34b0d562b2ad6bd7389407eed5c modal/sabiyarn_optimized.py
from typing import Optional

import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_heads: int, block_size: int, dropout: float = 0.0, use_kv_cache: bool = True):
        super().__init__()
        assert n_embd % n_heads == 0
        self.n_embd, self.n_heads, self.head_dim = n_embd, n_heads, n_embd // n_heads
        self.block_size, self.dropout, self.use_kv_cache = block_size, dropout, use_kv_cache
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self._cache_k = self._cache_v = None

    def _init_kv_cache(self, batch: int, device, dtype):
        shape = (batch, self.n_heads, self.block_size, self.head_dim)
        self._cache_k = torch.zeros(shape, device=device, dtype=dtype)
        self._cache_v = torch.zeros(shape, device=device, dtype=dtype)

    def reset_cache(self):
        self._cache_k = self._cache_v = None

    def forward(self, x: torch.Tensor, start_pos: int = 0, *, attn_mask: Optional[torch.Tensor] = None):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)

        if self.use_kv_cache and not self.training:
            if self._cache_k is None:
                self._init_kv_cache(B, x.device, x.dtype)
            self._cache_k[:B, :, start_pos:start_pos + T] = k
            self._cache_v[:B, :, start_pos:start_pos + T] = v
            # keys and values of every token so far; the queries are only the new tokens
            k = self._cache_k[:B, :, :start_pos + T]
            v = self._cache_v[:B, :, :start_pos + T]

        dropout_p = self.dropout if self.training else 0.0
        if attn_mask is not None:
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask.to(torch.bool), dropout_p=dropout_p)
        elif start_pos == 0:
            # whole sequence: queries and keys are aligned
            y = torch.nn.functional.scaled_dot_product_attention(
                q, k, v,
                attn_mask=None,
                dropout_p=dropout_p,
                is_causal=True,
            )
        else:
            # cached decoding: query i sits at position start_pos + i and may see keys 0 .. start_pos + i
            seq_len = k.size(-2)
            rows = torch.arange(T, device=q.device).unsqueeze(1)
            cols = torch.arange(seq_len, device=q.device).unsqueeze(0)
            causal_mask = (cols <= start_pos + rows).unsqueeze(0).unsqueeze(0).expand(B, self.n_heads, -1, -1)
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask, dropout_p=dropout_p)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
