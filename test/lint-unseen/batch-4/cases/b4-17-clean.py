# case: b4-17-clean
# modelled-on: trancefornow/llama-from-scratch https://github.com/trancefornow/llama-from-scratch/commit/df98ec61ed2f44b2032ce482296cf0362abd2cbb
# label: correct
# class: clean
# pattern: a LLaMA attention with a static KV cache held in buffers: new keys and values are copied in at [start_pos, end_pos) and the cache is read back up to end_pos; an additive causal mask `triu(full((seq_len, total_len), -inf), diagonal=start_pos + 1)` is built by a helper that returns None for a single-token step, added to the scores, and the softmax runs in float32 before casting back
# why: correct: the triu diagonal is offset by the number of cached positions, so the mask is aligned bottom-right with the cached keys; a one-token decoding step needs no mask; without the cache the offset is 0
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/trancefornow/llama-from-scratch https://github.com/trancefornow/llama-from-scratch/commit/df98ec61ed2f44b2032ce482296cf0362abd2cbb model/attention.py
import math
from typing import Optional

import torch
import torch.nn as nn


class CachedAttention(nn.Module):
    def __init__(self, dim: int, n_heads: int, rope):
        super().__init__()
        if dim % n_heads != 0:
            raise ValueError("dim must be divisible by n_heads")
        self.dim = dim
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.rope = rope
        self.register_buffer("cache_k", None, persistent=False)
        self.register_buffer("cache_v", None, persistent=False)

    def setup_cache(self, max_batch: int, max_len: int, device=None, dtype=None) -> None:
        shape = (max_batch, self.n_heads, max_len, self.head_dim)
        self.cache_k = torch.zeros(shape, device=device, dtype=dtype)
        self.cache_v = torch.zeros(shape, device=device, dtype=dtype)

    @staticmethod
    def offset_mask(n: int, total: int, start: int, device, dtype) -> Optional[torch.Tensor]:
        if n == 1:
            return None
        mask = torch.full((n, total), float("-inf"), device=device, dtype=dtype)
        mask = torch.triu(mask, diagonal=start + 1)
        return mask.view(1, 1, n, total)

    def forward(self, x: torch.Tensor, start_pos: int = 0, use_cache: bool = False) -> torch.Tensor:
        b, n, dim = x.shape
        end = start_pos + n
        q = self.wq(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, n, self.n_heads, self.head_dim).transpose(1, 2)
        q, k = self.rope(q, k, start_pos=start_pos)

        if use_cache:
            with torch.no_grad():
                self.cache_k[:b, :, start_pos:end, :].copy_(k)
                self.cache_v[:b, :, start_pos:end, :].copy_(v)
            keys = self.cache_k[:b, :, :end, :]
            values = self.cache_v[:b, :, :end, :]
            offset = start_pos
        else:
            keys, values, offset = k, v, 0

        scores = torch.matmul(q, keys.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (b, h, n, end)
        mask = self.offset_mask(n, keys.size(2), offset, x.device, scores.dtype)
        if mask is not None:
            scores = scores + mask
        probs = torch.softmax(scores.float(), dim=-1).to(dtype=q.dtype)
        out = torch.matmul(probs, values).transpose(1, 2).contiguous().view(b, n, dim)
        return self.wo(out)
