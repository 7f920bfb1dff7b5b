# case: b44-07-clean
# modelled-on: michaelb48/nlp-attention-is-all-you-need https://github.com/michaelb48/nlp-attention-is-all-you-need/commit/20da1884872687a97faf2ac26c29574c67342697
# label: correct
# class: clean
# pattern: an encoder-decoder Transformer for translation (a folder: the attention sublayers and the model that builds the masks): the model builds a padding keep mask (ids != pad).unsqueeze(-2) and, for the target, combines it with (triu(ones, 1) == 0) by &; the multi-head sublayer unsqueezes the mask for the head axis and hands it to a scaled dot-product module modelled on PyTorch's reference implementation, which multiplies q k^T by 1/sqrt(d_k) (or an explicit scale) and fills where mask == 0 with -inf before the softmax over the last axis
# why: correct: both masks are keep masks (True = real key / not in the future), combined with & as keep masks must be, and masked_fill(mask == 0, -inf) hides exactly the padded and future keys; the padding mask runs over the key axis, so every target row keeps at least the first (real) target token and every source row its real source tokens, and no row is all -inf; the scale is 1/sqrt(d_k) of the per-head width
# looks-like: ATT002, ATT007
# source: https://github.com/michaelb48/nlp-attention-is-all-you-need https://github.com/michaelb48/nlp-attention-is-all-you-need/commit/20da1884872687a97faf2ac26c29574c67342697 Sublayer.py
import math

import torch
import torch.nn as nn


class DotProductAttention(nn.Module):
    def forward(self, q, k, v, keep=None, scale=None):
        factor = 1 / math.sqrt(q.size(-1)) if scale is None else scale
        scores = (q @ k.transpose(-2, -1)) * factor
        if keep is not None:
            scores = scores.masked_fill(keep == 0, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v


class MultiHead(nn.Module):
    def __init__(self, d_model: int, heads: int, d_k: int, d_v: int):
        super().__init__()
        self.heads, self.d_k, self.d_v = heads, d_k, d_v
        self.wq = nn.Linear(d_model, heads * d_k, bias=False)
        self.wk = nn.Linear(d_model, heads * d_k, bias=False)
        self.wv = nn.Linear(d_model, heads * d_v, bias=False)
        self.attend = DotProductAttention()
        self.wo = nn.Linear(heads * d_v, d_model, bias=False)

    def forward(self, x_q, x_kv, keep):
        n, lq, lk = x_q.size(0), x_q.size(1), x_kv.size(1)
        keep = keep.unsqueeze(1)  # broadcast over the heads
        q = self.wq(x_q).view(n, lq, self.heads, self.d_k).transpose(1, 2)
        k = self.wk(x_kv).view(n, lk, self.heads, self.d_k).transpose(1, 2)
        v = self.wv(x_kv).view(n, lk, self.heads, self.d_v).transpose(1, 2)
        ctx = self.attend(q, k, v, keep).transpose(1, 2).contiguous()
        return self.wo(ctx.view(n, lq, -1))


class AttentionSublayer(nn.Module):

    def __init__(self, d_model, heads, d_k, d_v, dropout=0.1):
        super().__init__()
        self.mha = MultiHead(d_model, heads, d_k, d_v)
        self.drop = nn.Dropout(dropout)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, memory, keep):
        return self.norm(x + self.drop(self.mha(x, memory, keep)))


class FeedForward(nn.Module):
    def __init__(self, d_model, d_inner, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(), nn.Linear(d_inner, d_model), nn.Dropout(dropout))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):
        return self.norm(x + self.net(x))
