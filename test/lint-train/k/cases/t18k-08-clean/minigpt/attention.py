# case: t18k-08-clean
# modelled-on: 1218317903-alt/mini-gpt-from-scratch https://github.com/1218317903-alt/mini-gpt-from-scratch/commit/3403f176db0fc266523a487327efe96c34057516
# label: correct
# class: clean
# pattern: a teaching GPT with a KV cache: the attention module concatenates the cached keys and values (torch.cat along time) and calls a functional causal attention (functional.py) that builds its mask from positions, query i at past + i with past = K - Q, visible where key_pos <= query_pos, and fills ~visible with -inf; the same function serves training (no cache, Q == K), prefill and one-token decode steps
# why: correct: the mask is aligned bottom-right by construction (the query positions are offset by the cached length), so a decode step's single query sees every cached key and a multi-token step over a cache is causal within the new tokens; `~visible` is True exactly on the future, the right polarity for masked_fill; the diagonal is always visible, so no row is all -inf; the scale is 1/sqrt(head_dim), once
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/1218317903-alt/mini-gpt-from-scratch https://github.com/1218317903-alt/mini-gpt-from-scratch/commit/3403f176db0fc266523a487327efe96c34057516 src/minigpt/attention.py
from typing import Optional, Tuple

import torch
from torch import nn

from .functional import causal_attention

KVCache = Tuple[torch.Tensor, torch.Tensor]


class CausalSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int, block_size: int, dropout: float = 0.0):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.block_size = block_size
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.dropout = dropout

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x, past: Optional[KVCache] = None, use_cache: bool = False):
        q, k, v = (self.split(t) for t in self.qkv(x).chunk(3, dim=-1))
        if past is not None:
            past_k, past_v = past
            if past_k.size(2) + x.size(1) > self.block_size:
                raise ValueError("cache plus input exceed block_size")
            k = torch.cat((past_k, k), dim=2)
            v = torch.cat((past_v, v), dim=2)
        y, _ = causal_attention(q, k, v, p=self.dropout, training=self.training)
        b, _, t, _ = y.shape
        y = self.out(y.transpose(1, 2).reshape(b, t, -1))
        return (y, (k, v)) if use_cache else y
