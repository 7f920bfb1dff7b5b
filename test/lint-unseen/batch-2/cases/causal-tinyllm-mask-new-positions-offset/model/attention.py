# case: causal-tinyllm-mask-new-positions-offset
# modelled-on: Mikyx-1/TinyLLM https://github.com/Mikyx-1/TinyLLM/issues/17
# label: correct
# class: fixed
# pattern: hand-written causal attention with a KV cache from another module; the square triangular mask of the new tokens is written into the score columns after the cached past, whenever more than one new token arrives
# why: the fix of PR #18: cached positions precede every new token and stay visible, and the T_new x T_new triangle is applied to the columns T_past: of the scores, so prefill with an attached cache is causal and a single decode step needs no mask
# looks-like: ATT008
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

        T_past = 0
        if cache is not None:
            T_past = cache.k.shape[2] if cache.k is not None else 0
            k, v = cache.update(k, v)  # (B, H, T_past + T_new, d_k)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)  # (B, H, T_new, T_total)

        # the past is visible to every new token; only the new tokens are masked among themselves
        if T_new > 1:
            future = self.future_mask[:T_new, :T_new]
            scores[..., :, T_past:] = scores[..., :, T_past:].masked_fill(future, float("-inf"))

        attn = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, T_new, C)
        return self.o_proj(out)
