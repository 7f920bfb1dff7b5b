# case: t24q-05-clean
# modelled-on: yuty2009/ga-graphormer https://github.com/yuty2009/ga-graphormer/commit/22d29ba5175f567b9ef5a0f2f9dcd44149297867
# label: correct
# class: clean
# pattern: attention pooling over EEG electrodes: a per-head decay bias gamma_h ** dist (0 where two electrodes are unreachable, dist = inf) precomputed from electrode geometry, a channel mask (True = electrode present) inverted with ~ and passed as mask, unsqueezed twice to (B, 1, 1, N) and filled with -inf where True; with the default bias_type 'dot' the softmax weights are multiplied by the decay bias after the softmax, with 'add' the bias is added to the scores before it
# why: correct: ~channel_mask is True on absent electrodes and masked_fill fills True, so only absent keys are blocked (the present ones always leave a finite entry per row); the multiplicative decay after the softmax is the author's stated design (a RetNet-style decay applied to the weights, "different from Gradformer, which applies attn_bias before softmax"), not a mask meant to renormalise; scores are divided by math.sqrt(d_k) with d_k the per-head width
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/yuty2009/ga-graphormer https://github.com/yuty2009/ga-graphormer/commit/22d29ba5175f567b9ef5a0f2f9dcd44149297867 spatial.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(query, key, value, mask=None, droprate=None, attn_bias=None, bias_type="dot"):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask.unsqueeze(1), float("-inf"))
    if bias_type == "dot":
        p = F.softmax(scores, dim=-1)
        # decay applied to the weights, after the softmax (Gradformer adds it before)
        if attn_bias is not None:
            p = p * attn_bias
    else:
        if attn_bias is not None:
            scores = scores + attn_bias
        p = F.softmax(scores, dim=-1)
    if droprate is not None:
        p = droprate(p)
    return torch.matmul(p, value), p


class ElectrodeAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None, attn_bias=None, bias_type="dot"):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for every head
        b = q.size(0)
        q = self.W_Q(q).view(b, -1, self.n_heads, self.d_head).transpose(1, 2)
        k = self.W_K(k).view(b, -1, self.n_heads, self.d_head).transpose(1, 2)
        v = self.W_V(v).view(b, -1, self.n_heads, self.d_head).transpose(1, 2)
        out, w = attention(q, k, v, mask=mask, droprate=self.dropout, attn_bias=attn_bias, bias_type=bias_type)
        out = out.transpose(1, 2).contiguous().view(b, -1, self.n_heads * self.d_head)
        return self.out(out), w


class ElectrodePooling(nn.Module):
    def __init__(self, dist_matrix: torch.Tensor, embed_dim: int, n_layers: int = 2, n_heads: int = 4, dropout: float = 0.1):
        super().__init__()
        gammas = 1 - torch.exp(torch.linspace(math.log(1 / 8), math.log(1 / 64), n_heads))
        decay = []
        for g in gammas:
            d = g**dist_matrix
            d[dist_matrix == torch.inf] = 0
            decay.append(d)
        self.register_buffer("attn_bias", torch.stack(decay, dim=0))  # (heads, N, N)
        self.layers = nn.ModuleList([ElectrodeAttention(embed_dim, n_heads, dropout) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x, channel_mask=None):
        B, N, _ = x.shape
        if channel_mask is None:
            channel_mask = torch.ones(B, N, dtype=torch.bool, device=x.device)  # True = electrode present
        bias = self.attn_bias.unsqueeze(0).expand(B, -1, -1, -1)
        out = x
        for layer in self.layers:
            h, _ = layer(out, out, out, mask=~channel_mask, attn_bias=bias)
            out = out + h
        return self.norm(out).mean(dim=1)
