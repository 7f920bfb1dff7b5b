# case: b63-08-clean
# modelled-on: Awni00/neural-algorithmic-reasoning https://github.com/Awni00/neural-algorithmic-reasoning/commit/f8df40666b2e1056e728d855f879121216ab7bf0
# label: correct
# class: clean
# pattern: a configurable grouped-query attention module in a folder: `attn_utils.py` builds boolean masks as True = may attend (`ones(...).tril().bool()` for causality) with a comment that torch is inconsistent about the polarity; `attention.py` turns `is_causal` into that mask itself, then either calls `F.scaled_dot_product_attention(..., attn_mask=mask, scale=self.attn_scale)` or, when the weights are needed, adds `zeros.masked_fill(mask.logical_not(), -inf)` to `q @ k.transpose(2, 3) * self.attn_scale` before a softmax over the last axis; the scale is `1 / sqrt(key_dim)` where `key_dim` may be set apart from the value head width; `blocks.py` passes `is_causal=self.causal` from a decoder block
# why: correct: SDPA's boolean `attn_mask` is True where attention is allowed, which is the helper's polarity, and the manual path inverts it once with `logical_not()` before filling -inf, so both paths hide exactly the future keys; the causal mask is only built when the query and key lengths are equal (asserted), so its top-left alignment is right; the scale uses the query/key width (`key_dim`), which is the width of the dot products even when the value heads are wider, and SDPA is given that same scale explicitly instead of its default
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/Awni00/neural-algorithmic-reasoning https://github.com/Awni00/neural-algorithmic-reasoning/commit/f8df40666b2e1056e728d855f879121216ab7bf0 models/attention.py
import math

import torch
import torch.nn.functional as F
from torch import nn

from .attn_utils import causal_mask, repeat_kv


class GQAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int = None, key_dim: int = None, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads or n_heads
        self.n_rep = self.n_heads // self.n_kv_heads
        self.head_dim = d_model // n_heads
        self.key_dim = key_dim or self.head_dim
        self.attn_scale = 1 / math.sqrt(self.key_dim)
        self.dropout = dropout
        self.wq = nn.Linear(d_model, n_heads * self.key_dim, bias=False)
        self.wk = nn.Linear(d_model, self.n_kv_heads * self.key_dim, bias=False)
        self.wv = nn.Linear(d_model, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, d_model, bias=False)
        self.drop = nn.Dropout(dropout)

    def forward(self, query, key, value, is_causal: bool = False, need_weights: bool = False):
        bsz, q_len, _ = query.shape
        k_len = key.shape[1]
        mask = None
        if is_causal:
            assert q_len == k_len, "a causal mask needs equal query and key lengths"
            mask = causal_mask(q_len, device=query.device)

        xq = self.wq(query).view(bsz, q_len, self.n_heads, self.key_dim)
        xk = self.wk(key).view(bsz, k_len, self.n_kv_heads, self.key_dim)
        xv = self.wv(value).view(bsz, k_len, self.n_kv_heads, self.head_dim)
        xk, xv = repeat_kv(xk, self.n_rep), repeat_kv(xv, self.n_rep)
        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)

        if not need_weights:
            out = F.scaled_dot_product_attention(
                xq, xk, xv, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0, scale=self.attn_scale
            )
            scores = None
        else:
            scores = torch.matmul(xq, xk.transpose(2, 3)) * self.attn_scale
            if mask is not None:
                bias = torch.zeros(q_len, k_len, dtype=xq.dtype, device=xq.device)
                scores = scores + bias.masked_fill(mask.logical_not(), float("-inf"))
            scores = self.drop(F.softmax(scores, dim=-1))
            out = torch.matmul(scores, xv)

        out = out.transpose(1, 2).contiguous().view(bsz, q_len, -1)
        return self.wo(out), scores
