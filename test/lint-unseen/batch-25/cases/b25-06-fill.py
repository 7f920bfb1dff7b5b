# case: b25-06-fill
# modelled-on: bigdata-ustc/EduKTM https://github.com/bigdata-ustc/EduKTM/pull/53
# label: correct
# class: fixed
# pattern: the attentive knowledge-tracing attention of b25-05 with the fix proposed in the project's pull request #53: the final masking is scores.masked_fill_(mask == 0, -1e23), in place, before F.softmax(dim=-1); the no_grad distance branch still fills a copy with -1e32, softmaxes it and multiplies the weights by the mask, and the layer's mask is np.triu(ones, k=peek) == 0 with the first query row replaced by zeros when peek=0
# why: correct: the in-place fill masks the future (and, for peek=0, the current) responses before the softmax; with peek=0 the first row is fully masked and comes out uniform rather than NaN (the fill is finite), and that row is then overwritten with zeros, as the model intends; multiplying the no_grad weights by the mask after a softmax whose input was already masked leaves them unchanged, so no renormalisation is needed; the fills are float32 values
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/bigdata-ustc/EduKTM https://github.com/bigdata-ustc/EduKTM/pull/53 EduKTM/AKT/AKTNet.py
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def monotonic_attention(q, k, v, d_k, mask, dropout, zero_pad, gamma):
    """Scaled dot-product attention with an exponential decay over the distance to past responses."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    bs, heads, seqlen = scores.size(0), scores.size(1), scores.size(2)
    x1 = torch.arange(seqlen, device=scores.device).expand(seqlen, -1)
    x2 = x1.transpose(0, 1).contiguous()

    with torch.no_grad():
        weights_ = scores.masked_fill(mask == 0, -1e32)
        weights_ = F.softmax(weights_, dim=-1)
        weights_ = weights_ * mask.float()
        cum = torch.cumsum(weights_, dim=-1)
        total = torch.sum(weights_, dim=-1, keepdim=True)
        position_effect = torch.abs(x1 - x2)[None, None].float()
        dist = torch.clamp((total - cum) * position_effect, min=0.0).sqrt().detach()
    gamma = -1.0 * F.softplus(gamma).unsqueeze(0)
    decay = torch.clamp(torch.clamp((dist * gamma).exp(), min=1e-5), max=1e5)
    scores = scores * decay

    scores.masked_fill_(mask == 0, -1e23)
    scores = F.softmax(scores, dim=-1)
    if zero_pad:
        pad_zero = torch.zeros(bs, heads, 1, seqlen, device=scores.device)
        scores = torch.cat([pad_zero, scores[:, :, 1:, :]], dim=2)
    return torch.matmul(dropout(scores), v)


class DecayAttention(nn.Module):
    def __init__(self, d_model, d_feature, n_heads, dropout, kq_same):
        super().__init__()
        self.d_model, self.d_k, self.h = d_model, d_feature, n_heads
        self.kq_same = kq_same
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        if not kq_same:
            self.q_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out_proj = nn.Linear(d_model, d_model)
        self.gammas = nn.Parameter(torch.zeros(n_heads, 1, 1))
        nn.init.xavier_uniform_(self.gammas)

    def forward(self, q, k, v, mask, zero_pad):
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        q_proj = self.k_linear if self.kq_same else self.q_linear
        q = q_proj(q).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        out = monotonic_attention(q, k, v, self.d_k, mask, self.dropout, zero_pad, self.gammas)
        return self.out_proj(out.transpose(1, 2).contiguous().view(bs, -1, self.d_model))


class TracingLayer(nn.Module):
    def __init__(self, d_model, d_feature, d_ff, n_heads, dropout, kq_same):
        super().__init__()
        self.attn = DecayAttention(d_model, d_feature, n_heads, dropout, kq_same)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.drop1 = nn.Dropout(dropout)
        self.drop2 = nn.Dropout(dropout)

    def forward(self, peek, query, key, values, apply_pos=True):
        """peek=1: a position sees itself and the past; peek=0: only the past."""
        seqlen = query.size(1)
        nopeek = np.triu(np.ones((1, 1, seqlen, seqlen)), k=peek).astype("uint8")
        src_mask = (torch.from_numpy(nopeek) == 0).to(query.device)
        h = self.attn(query, key, values, mask=src_mask, zero_pad=(peek == 0))
        query = self.norm1(query + self.drop1(h))
        if apply_pos:
            query = self.norm2(query + self.drop2(self.ff(query)))
        return query
