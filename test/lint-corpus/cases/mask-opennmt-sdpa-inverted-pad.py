# case: mask-opennmt-sdpa-inverted-pad
# modelled-on: OpenNMT/OpenNMT-py https://github.com/OpenNMT/OpenNMT-py/pull/2542
# label: correct
# pattern: a multi-headed attention that keeps an "ignore" mask (True = pad) for its manual path and inverts it with ~ at the SDPA call; the manual path fills the same mask with finfo.min after scaling q
# why: SDPA's boolean attn_mask keeps True positions, so ~pad_mask is right there; masked_fill(pad_mask, ...) is right on the manual path
# looks-like: ATT002, ATT003
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadedAttention(nn.Module):
    def __init__(self, head_count: int, model_dim: int, dropout: float = 0.1, self_attn_type: str = "scaled-dot"):
        super().__init__()
        assert model_dim % head_count == 0
        self.dim_per_head = model_dim // head_count
        self.head_count = head_count
        self.linear_keys = nn.Linear(model_dim, model_dim, bias=False)
        self.linear_values = nn.Linear(model_dim, model_dim, bias=False)
        self.linear_query = nn.Linear(model_dim, model_dim, bias=False)
        self.final_linear = nn.Linear(model_dim, model_dim, bias=False)
        self.dropout_p = dropout
        self.dropout = nn.Dropout(dropout)
        self.self_attn_type = self_attn_type

    def shape(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.size()
        return x.view(b, n, self.head_count, self.dim_per_head).transpose(1, 2)  # (B, H, n, dph)

    def forward(self, key, value, query, mask: Optional[torch.Tensor] = None):
        """mask: (B, 1, S) or (B, T, S) bool, True = padding / not allowed."""
        b = key.size(0)
        key = self.shape(self.linear_keys(key))
        value = self.shape(self.linear_values(value))
        query = self.shape(self.linear_query(query))
        if mask is not None:
            mask = mask.unsqueeze(1)  # (B, 1, 1|T, S)

        if self.self_attn_type == "scaled-dot-flash":
            attn_output = F.scaled_dot_product_attention(
                query, key, value, ~mask if mask is not None else None, self.dropout_p if self.training else 0.0
            )
        else:
            query = query / math.sqrt(self.dim_per_head)
            scores = torch.matmul(query, key.transpose(2, 3)).float()  # (B, H, T, S)
            if mask is not None:
                scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)
            attn = self.dropout(torch.softmax(scores, dim=-1).to(query.dtype))
            attn_output = torch.matmul(attn, value)
        context = attn_output.transpose(1, 2).contiguous().view(b, -1, self.head_count * self.dim_per_head)
        return self.final_linear(context)
