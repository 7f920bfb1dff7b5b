# case: scale-perceiver-divide-by-inverse
# modelled-on: esceptico/perceiver-io https://github.com/esceptico/perceiver-io/issues/9
# label: buggy
# pattern: self.scale is defined as qk_head_dim ** -0.5 in __init__ but forward divides by it instead of multiplying
# why: dividing by d ** -0.5 multiplies the scores by sqrt(d), so the logits are d times larger than intended
from typing import Optional

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, kv_dim: int, q_dim: int, *, qk_out_dim: Optional[int] = None, v_out_dim: Optional[int] = None,
                 output_dim: Optional[int] = None, num_heads: int = 1, dropout: float = 0.0):
        super().__init__()
        qk_out_dim = qk_out_dim or q_dim
        v_out_dim = v_out_dim or qk_out_dim
        output_dim = output_dim or v_out_dim
        self.num_heads = num_heads
        self.qk_head_dim = qk_out_dim // num_heads
        self.v_head_dim = v_out_dim // num_heads
        self.k = nn.Linear(kv_dim, qk_out_dim)
        self.q = nn.Linear(q_dim, qk_out_dim)
        self.v = nn.Linear(kv_dim, v_out_dim)
        self.projection = nn.Linear(v_out_dim, output_dim)
        self.dropout = nn.Dropout(dropout)
        self.scale = self.qk_head_dim ** -0.5

    def transform_for_scores(self, x: torch.Tensor, head_dim: int) -> torch.Tensor:
        *dims, seq, hid = x.size()
        x = x.view(*dims, seq, self.num_heads, head_dim)
        return x.transpose(-3, -2)  # (..., heads, seq, head_dim)

    def forward(self, inputs_kv: torch.Tensor, inputs_q: torch.Tensor, attention_mask: Optional[torch.Tensor] = None):
        keys, queries, values = self.k(inputs_kv), self.q(inputs_q), self.v(inputs_kv)
        keys = self.transform_for_scores(keys, self.qk_head_dim)
        queries = self.transform_for_scores(queries, self.qk_head_dim)
        values = self.transform_for_scores(values, self.v_head_dim)
        attention = queries @ keys.transpose(-2, -1) / self.scale  # expect: ATT004
        if attention_mask is not None:
            min_value = torch.finfo(attention.dtype).min
            extended_mask = (1 - attention_mask) * min_value  # attention_mask: 1 = attend
            attention = attention + extended_mask
        attention = attention.softmax(dim=-1)
        attention = self.dropout(attention)
        weighted = attention @ values  # (..., heads, q_seq, v_head_dim)
        *dims, n_heads, seq, hid = weighted.size()
        weighted = weighted.transpose(-3, -2).reshape(*dims, seq, n_heads * hid)
        return self.projection(weighted)
