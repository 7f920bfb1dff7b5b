# case: t13f-04-clean
# modelled-on: shriyanspati/attention-is-all-you-need-reproduction https://github.com/shriyanspati/attention-is-all-you-need-reproduction/commit/c6a22e0ac342947cb2405ca50f269defc50bdb7c
# label: correct
# class: clean
# pattern: one repository, two transformer implementations with opposite mask conventions side by side: a reference package whose masks mark positions to IGNORE (tokens.eq(pad), triu(ones, 1), ORed for the decoder) and whose attention fills torch.finfo(dtype).min where the mask is True; and a project package whose masks mark positions that MAY ATTEND (tokens != pad, tril, ANDed) and whose attention fills the same value where ~mask; both scale by math.sqrt of the per-head width
# why: correct: each implementation fills exactly the positions its own masks mark as illegal (True for the ignore masks, ~mask for the keep masks); the ignore masks are combined with | and the keep masks with &, which is the same set of allowed connections; finfo.min is finite, so even a fully masked row gives a uniform distribution rather than NaN; what a naive linter could misread: ATT002 (the same masked_fill call shape with opposite polarities, masks built in other modules, eq(pad) and triu passed without inversion next to ~mask), ATT007 (finfo(dtype).min fills), ATT004 (sqrt of head_dim / of the query's last axis)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/shriyanspati/attention-is-all-you-need-reproduction https://github.com/shriyanspati/attention-is-all-you-need-reproduction/commit/c6a22e0ac342947cb2405ca50f269defc50bdb7c src/transformer_reference_implementation/modules.py
import math

import torch
import torch.nn as nn

from reference.masks import make_causal_mask, make_padding_mask


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.d_model, self.num_heads, self.head_dim = d_model, num_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def _shape(self, t, b):
        return t.view(b, -1, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        q, k, v = self._shape(self.q_proj(query), b), self._shape(self.k_proj(key), b), self._shape(self.v_proj(value), b)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)
        attention = self.dropout(torch.softmax(scores, dim=-1))
        context = torch.matmul(attention, v).transpose(1, 2).contiguous().view(b, query.size(1), self.d_model)
        return self.out_proj(context), attention


def decoder_self_mask(tgt: torch.Tensor, pad_id: int) -> torch.Tensor:
    pad = make_padding_mask(tgt, pad_id).unsqueeze(1).unsqueeze(2)
    future = make_causal_mask(tgt.size(1), device=tgt.device).unsqueeze(0).unsqueeze(0)
    return pad | future


def memory_mask(src: torch.Tensor, pad_id: int) -> torch.Tensor:
    return make_padding_mask(src, pad_id).unsqueeze(1).unsqueeze(2)
