# case: clean-informer-triangular-mask-helper
# modelled-on: zhouhaoyi/Informer2020 https://github.com/zhouhaoyi/Informer2020/blob/main/models/attn.py
# label: correct
# class: clean
# pattern: a two-file workspace: the causal mask is an object built in utils/masking.py (triu(ones, diagonal=1), True = future) and read through a .mask property; the attention works on (B, L, H, E) tensors with einsum, fills -inf in place, and applies the scale inside the softmax call (scale or 1/sqrt(E))
# why: triu(..., diagonal=1) is True strictly above the diagonal, so masked_fill_(mask, -inf) hides only the future and every row keeps its diagonal; the einsum 'blhe,bshe->bhls' puts keys last, so softmax(dim=-1) is over the keys, and the second einsum sums over s; the scale 1/sqrt(E) uses the per-head size E
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/zhouhaoyi/Informer2020 https://github.com/zhouhaoyi/Informer2020/commit/29f2a739226a509202a092b464163da81fa74960 models/attn.py
from math import sqrt

import numpy as np
import torch
import torch.nn as nn

from utils.masking import TriangularCausalMask


class FullAttention(nn.Module):
    def __init__(self, mask_flag=True, factor=5, scale=None, attention_dropout=0.1, output_attention=False):
        super(FullAttention, self).__init__()
        self.scale = scale
        self.mask_flag = mask_flag
        self.output_attention = output_attention
        self.dropout = nn.Dropout(attention_dropout)

    def forward(self, queries, keys, values, attn_mask):
        B, L, H, E = queries.shape
        _, S, _, D = values.shape
        scale = self.scale or 1. / sqrt(E)

        scores = torch.einsum("blhe,bshe->bhls", queries, keys)
        if self.mask_flag:
            if attn_mask is None:
                attn_mask = TriangularCausalMask(B, L, device=queries.device)
            scores.masked_fill_(attn_mask.mask, -np.inf)

        A = self.dropout(torch.softmax(scale * scores, dim=-1))
        V = torch.einsum("bhls,bshd->blhd", A, values)

        if self.output_attention:
            return (V.contiguous(), A)
        return (V.contiguous(), None)


class AttentionLayer(nn.Module):
    def __init__(self, attention, d_model, n_heads, d_keys=None, d_values=None, mix=False):
        super(AttentionLayer, self).__init__()
        d_keys = d_keys or (d_model // n_heads)
        d_values = d_values or (d_model // n_heads)
        self.inner_attention = attention
        self.query_projection = nn.Linear(d_model, d_keys * n_heads)
        self.key_projection = nn.Linear(d_model, d_keys * n_heads)
        self.value_projection = nn.Linear(d_model, d_values * n_heads)
        self.out_projection = nn.Linear(d_values * n_heads, d_model)
        self.n_heads = n_heads
        self.mix = mix

    def forward(self, queries, keys, values, attn_mask):
        B, L, _ = queries.shape
        _, S, _ = keys.shape
        H = self.n_heads

        queries = self.query_projection(queries).view(B, L, H, -1)
        keys = self.key_projection(keys).view(B, S, H, -1)
        values = self.value_projection(values).view(B, S, H, -1)

        out, attn = self.inner_attention(queries, keys, values, attn_mask)
        if self.mix:
            out = out.transpose(2, 1).contiguous()
        out = out.view(B, L, -1)
        return self.out_projection(out), attn
