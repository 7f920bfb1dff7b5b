# case: b20-08-clean
# modelled-on: mauricioavs/translation-transformer https://github.com/mauricioavs/translation-transformer/commit/462391c72752fe6a8bb04a142a395f6136e5ac1a
# label: correct
# class: clean
# pattern: a translation transformer whose masks come from a helper module (masks.py): keep masks, sequence.ne(pad_id) unsqueezed to [batch, 1, 1, length] and tril(ones(size, size, bool)) ANDed with it for the decoder; the model (transformer.py) builds them when the caller passes none; the attention requires a bool mask and fills masked_fill(~mask, -inf) before a softmax over the keys, on scores divided by sqrt(head_dim)
# why: correct: the masks are True where attention is allowed and ~mask hides padding and future keys; with right padding every query row keeps at least key 0 (the decoder's triangle keeps the diagonal and the tokens before it), so the -inf fill leaves no row empty; the encoder-decoder attention gets the source padding mask
# looks-like: ATT002, ATT007
# source: https://github.com/mauricioavs/translation-transformer https://github.com/mauricioavs/translation-transformer/commit/462391c72752fe6a8bb04a142a395f6136e5ac1a multi_head_attention.py
import math
from typing import Optional

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model must be divisible by num_heads")
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def _split_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

    def _combine_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, _, n, _ = x.shape
        return x.transpose(1, 2).contiguous().view(b, n, self.num_heads * self.head_dim)

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """mask: optional bool tensor broadcastable to [batch, heads, query_len, key_len], True = may attend."""
        q = self._split_heads(self.q_proj(query))
        k = self._split_heads(self.k_proj(key))
        v = self._split_heads(self.v_proj(value))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            if mask.dtype != torch.bool:
                raise ValueError("Attention mask must be of dtype bool.")
            scores = scores.masked_fill(~mask, float("-inf"))
        attn = self.dropout(torch.softmax(scores, dim=-1))
        return self.out_proj(self._combine_heads(torch.matmul(attn, v)))
