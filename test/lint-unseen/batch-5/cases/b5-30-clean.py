# case: b5-30-clean
# modelled-on: tanjeffreyz/attention-is-all-you-need https://github.com/tanjeffreyz/attention-is-all-you-need/commit/2a2c0bd386c81e6118f1d23e9a2a3f54ace93e50
# label: correct
# class: clean
# pattern: a paper reimplementation with the softmax built once as nn.Softmax(dim=-1) in the constructor; heads are split with reshape + transpose(2, 1) and merged back; the decoder's self-attention (use_mask=True) builds triu(ones, diagonal=1) as a bool mask and calls torch.masked_fill(scores, mask, -inf) in functional form before the module softmax
# why: correct: the triu(diagonal=1) bool mask is True at the future keys, which masked_fill sets to -inf; the softmax module normalises over the last axis, the keys; the scores are divided by sqrt(d_model / num_heads), the head width
# looks-like: ATT001, ATT002, ATT005
# source: https://github.com/tanjeffreyz/attention-is-all-you-need https://github.com/tanjeffreyz/attention-is-all-you-need/commit/2a2c0bd386c81e6118f1d23e9a2a3f54ace93e50 modules/attention.py
import math

import torch
from torch import nn


class PaperMultiHead(nn.Module):
    def __init__(self, d_model, num_heads=8, use_mask=False):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.use_mask = use_mask
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, queries, keys, values):
        q = self.split_heads(self.w_q(queries))
        k = self.split_heads(self.w_k(keys))
        v = self.split_heads(self.w_v(values))
        return self.w_o(self.merge_heads(self.attend(q, k, v)))

    def split_heads(self, x):
        b, n, _ = x.size()
        # (b, n, d_model) -> (b, heads, n, d_model / heads)
        return x.reshape(b, n, self.num_heads, self.d_model // self.num_heads).transpose(2, 1)

    def merge_heads(self, x):
        b, _, n, _ = x.size()
        return x.transpose(1, 2).reshape(b, n, self.d_model)

    def attend(self, q, k, v):
        d_k = self.d_model // self.num_heads
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(d_k)
        if self.use_mask:
            n = scores.size(-1)
            # True above the diagonal: the positions after each query
            mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1).to(scores.device)
            scores = torch.masked_fill(scores, mask, float("-inf"))
        weights = self.softmax(scores)
        return torch.matmul(weights, v)
