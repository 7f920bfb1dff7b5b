# case: b25-05-fill
# modelled-on: bigdata-ustc/EduKTM https://github.com/bigdata-ustc/EduKTM/commit/5625056855ffd18c0ad3c052feba4733a386ca01
# label: buggy
# class: real-bug
# pattern: a knowledge-tracing model (attentive knowledge tracing) whose attention function scales q @ k^T by 1/sqrt(d_k), computes a distance-decay term from a masked softmax under torch.no_grad (there the scores are filled with -1e32 where the mask is 0, softmaxed, and multiplied by the mask again), multiplies the scores by the decay, then masks them with scores.masked_fill(mask == 0, -1e23) written as a statement of its own before F.softmax(dim=-1); the layer builds the mask from np.triu(ones, k=peek) == 0 (peek=1: each response sees itself and the past, peek=0: only the past, with the first row zero-padded after the softmax)
# why: buggy: masked_fill is out of place and its result is discarded, so the scores reach the softmax unmasked and every interaction attends to future responses (label leakage reported in the project's issues #39 and #52; the proposed fix is masked_fill_ in place). The no_grad branch masks correctly (its result is assigned), its multiplication by the mask after the softmax changes nothing because the masked weights are already zero, and -1e32 / -1e23 are finite in float32, the model's only precision
# source: https://github.com/bigdata-ustc/EduKTM https://github.com/bigdata-ustc/EduKTM/commit/5625056855ffd18c0ad3c052feba4733a386ca01 EduKTM/AKT/AKTNet.py
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

    scores.masked_fill(mask == 0, -1e23)  # expect: ATT007
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
