# case: b4-30-softmax
# modelled-on: richsi/transformer-pytorch https://github.com/richsi/transformer-pytorch/commit/d6e2a2ebb340231bb3f7339c77b1ae642fd59d47
# label: buggy
# class: real-bug
# pattern: a multi-head attention that merges the batch and head axes before a static scaled dot-product function: Q, K, V become (batch * heads, seq, d_head), a (batch, 1, 1, seq) mask is repeated per head, the scores Q @ K.transpose(-2, -1) / sqrt(d_k) are filled with -inf where the mask is 0, and torch.softmax is applied before the weighted sum of V
# why: the softmax is over dim=1, the query axis of the 3-D (batch * heads, seq_len_q, seq_len_k) scores, while the function's docstring describes attention weights over the keys (shape (..., seq_len_q, seq_len_k)); each key's column sums to 1 instead of each query's row. No fix was found; the real file also used an attribute name for the head count that it never set, written consistently here
# source: https://github.com/richsi/transformer-pytorch https://github.com/richsi/transformer-pytorch/commit/d6e2a2ebb340231bb3f7339c77b1ae642fd59d47 transformer/attention.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.dropout = dropout

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        b = query.size(0)
        # (b, seq, d_model) -> (b, heads, seq, d_head) -> (b * heads, seq, d_head)
        Q = self.W_q(query).view(b, -1, self.num_heads, self.d_head).transpose(1, 2).reshape(b * self.num_heads, -1, self.d_head)
        K = self.W_k(key).view(b, -1, self.num_heads, self.d_head).transpose(1, 2).reshape(b * self.num_heads, -1, self.d_head)
        V = self.W_v(value).view(b, -1, self.num_heads, self.d_head).transpose(1, 2).reshape(b * self.num_heads, -1, self.d_head)
        if mask is not None:
            mask = mask.repeat_interleave(self.num_heads, dim=0)
        out, _ = MultiHeadAttention.scaled_dot_product_attention(Q, K, V, mask, self.dropout if self.training else None)
        out = out.view(b, self.num_heads, -1, self.d_head).transpose(1, 2).reshape(b, -1, self.d_model)
        return self.W_o(out)

    @staticmethod
    def scaled_dot_product_attention(Q, K, V, mask=None, dropout=None) -> Tuple[torch.Tensor, torch.Tensor]:
        """Q: (..., seq_len_q, d_k), K: (..., seq_len_k, d_k), V: (..., seq_len_k, d_v).
        Returns the output (..., seq_len_q, d_v) and the attention weights (..., seq_len_q, seq_len_k)."""
        d_k = Q.size(-1)
        scores = torch.matmul(Q, K.transpose(-2, -1))
        scores = scores / math.sqrt(d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        attn = torch.softmax(scores, dim=1)  # expect: ATT001
        if dropout is not None:
            attn = nn.functional.dropout(attn, p=dropout)
        return torch.matmul(attn, V), attn
