# case: causal-lag-llama-kv-cache-is-causal
# modelled-on: time-series-foundation-models/lag-llama https://github.com/time-series-foundation-models/lag-llama/issues/81
# label: buggy
# pattern: a LLaMA-style CausalSelfAttention concatenates the cached keys/values and always calls SDPA with is_causal=True, so on cached forecasting steps the query is shorter than the keys
# why: SDPA's is_causal is top-left aligned: with 1 new query over S cached keys it lets the query see only key 0 instead of all S, so cached forecasts diverge from uncached ones
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, dropout: float = 0.0):
        super().__init__()
        self.q_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.kv_proj = nn.Linear(n_embd, 2 * n_embd, bias=False)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=False)
        self.n_head = n_head
        self.n_embd = n_embd
        self.dropout = dropout
        self.kv_cache: Optional[Tuple[torch.Tensor, torch.Tensor]] = None

    def reset_cache(self):
        self.kv_cache = None

    def forward(self, x: torch.Tensor, use_kv_cache: bool) -> torch.Tensor:
        B, T, C = x.size()
        q = self.q_proj(x)
        k, v = self.kv_proj(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)

        if use_kv_cache:
            if self.kv_cache is not None:
                cache_k, cache_v = self.kv_cache
                k = torch.cat([cache_k, k], dim=-2)  # (B, nh, S, hs), S > T
                v = torch.cat([cache_v, v], dim=-2)
            self.kv_cache = (k, v)

        y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=self.dropout if self.training else 0.0, is_causal=True)  # expect: ATT008
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
