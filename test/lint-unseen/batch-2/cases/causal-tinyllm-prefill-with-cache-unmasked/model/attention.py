# case: causal-tinyllm-prefill-with-cache-unmasked
# modelled-on: Mikyx-1/TinyLLM https://github.com/Mikyx-1/TinyLLM/issues/17
# label: buggy
# class: real-bug
# pattern: hand-written causal attention whose triangular mask is applied only when no KV cache is passed; generation attaches an empty cache already for the multi-token prompt (prefill), and the cache class lives in another module
# why: with a cache attached the prompt's T_new > 1 queries skip the causal mask and attend to later prompt tokens; the leaked states are written into the cache and every decode step reads them (issue #17, fixed in PR #18 by masking the new positions whenever T_new > 1)
# source: https://github.com/Mikyx-1/TinyLLM https://github.com/Mikyx-1/TinyLLM/pull/18 model/attention.py
from __future__ import annotations

import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from model.config import LayerCache, LMConfig


class CausalSelfAttention(nn.Module):
    """Training (cache=None): full sequence, triangular mask. Decode (cache given): new tokens over the cached past."""

    def __init__(self, config: LMConfig) -> None:
        super().__init__()
        self.n_heads = config.n_heads
        self.d_k = config.d_k
        self.d_model = config.d_model
        self.q_proj = nn.Linear(config.d_model, config.d_model, bias=False)
        self.k_proj = nn.Linear(config.d_model, config.d_model, bias=False)
        self.v_proj = nn.Linear(config.d_model, config.d_model, bias=False)
        self.o_proj = nn.Linear(config.d_model, config.d_model, bias=False)
        self.drop = nn.Dropout(config.dropout)
        future = torch.triu(torch.ones(config.context_length, config.context_length), diagonal=1)
        self.register_buffer("future_mask", future.bool())  # True above the diagonal

    def forward(self, x: torch.Tensor, cache: Optional[LayerCache] = None) -> torch.Tensor:
        B, T_new, C = x.shape
        q = self.q_proj(x).view(B, T_new, self.n_heads, self.d_k).transpose(1, 2)  # (B, H, T_new, d_k)
        k = self.k_proj(x).view(B, T_new, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T_new, self.n_heads, self.d_k).transpose(1, 2)

        if cache is not None:
            k, v = cache.update(k, v)  # (B, H, T_past + T_new, d_k)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)  # (B, H, T_new, T_total)

        if cache is None:
            scores = scores.masked_fill(self.future_mask[:T_new, :T_new], float("-inf"))  # expect: ATT008

        attn = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, T_new, C)
        return self.o_proj(out)
