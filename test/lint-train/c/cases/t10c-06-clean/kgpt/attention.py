# case: t10c-06-clean
# modelled-on: KeigoShimadaCC/llm-from-scratch https://github.com/KeigoShimadaCC/llm-from-scratch/commit/2ab4d68
# label: correct
# class: clean
# pattern: a cache-aware causal keep mask built in a helper module (key position <= query position, the queries offset by the cached length) and inverted with ~ inside masked_fill after past keys are concatenated
# why: the offset aligns the causal triangle to the bottom right, so cached keys stay visible and prefill with a cache (several queries) stays causal; ~keep fills exactly the future with -inf and each query keeps its own key
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/KeigoShimadaCC/llm-from-scratch https://github.com/KeigoShimadaCC/llm-from-scratch/commit/2ab4d68 kgpt/transformer.py
import math

import torch
import torch.nn.functional as F
from torch import nn

from kgpt.masking import causal_mask_for_cache


class CausalSelfAttention(nn.Module):
    def __init__(self, embedding_dim: int, num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        if embedding_dim % num_heads != 0:
            raise ValueError("embedding_dim must be divisible by num_heads")
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.qkv = nn.Linear(embedding_dim, 3 * embedding_dim)
        self.proj = nn.Linear(embedding_dim, embedding_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, hidden, *, past_key_value=None, use_cache=False):
        b, t, e = hidden.shape
        q, k, v = self.qkv(hidden).view(b, t, 3, self.num_heads, self.head_dim).unbind(dim=2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        if past_key_value is not None:
            past_k, past_v = past_key_value
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)

        scores = q @ k.transpose(-2, -1)
        scores = scores / math.sqrt(self.head_dim)
        scores = scores.masked_fill(
            ~causal_mask_for_cache(query_length=t, key_length=k.shape[2], device=hidden.device),
            float("-inf"),
        )
        weights = self.dropout(F.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).contiguous().view(b, t, e)
        present = (k, v) if use_cache else None
        return self.proj(out), present
