# case: t23p-11-clean
# modelled-on: salmaswafa/multihead-attention-transformer https://github.com/salmaswafa/multihead-attention-transformer/commit/8f5611eadff6d6dcec91aa50ed4fbceca7863954
# label: correct
# class: clean
# pattern: a course-assignment transformer with one module per head: the multi-head module in another file splits its input with torch.chunk(x, num_heads, dim=-1) and hands each head a (B, T, head_size) slice; inside a head, B, T, C = x.shape, the head's own q/k/v linears are head_size -> head_size, and the scores are q @ k.transpose(-2, -1) * C ** -0.5, optionally plus an ALiBi bias -slope * |i - j| and a causal masked_fill(tril == 0, -inf) with a tril buffer sized by a settings module, then softmax(dim=-1)
# why: correct: each head receives only its chunk of the embedding, so C, read from the head's input, is head_size (n_embd // n_head) and C ** -0.5 is the per-head 1/sqrt(d_k), not the model width; the ALiBi bias is added before the softmax; the tril buffer is block_size square and every sequence is padded to block_size, and masking where tril == 0 blocks the future
# looks-like: ATT002, ATT004, ATT005
# source: https://github.com/salmaswafa/multihead-attention-transformer https://github.com/salmaswafa/multihead-attention-transformer/commit/8f5611eadff6d6dcec91aa50ed4fbceca7863954 PA2_code/head.py
import torch
import torch.nn as nn
from torch.nn import functional as F

from pa2 import settings


class Head(nn.Module):
    def __init__(self, head_size, d_model, causal=False, alibi=False):
        super().__init__()
        self.query = nn.Linear(head_size, head_size, bias=False)
        self.key = nn.Linear(head_size, head_size, bias=False)
        self.value = nn.Linear(head_size, head_size, bias=False)
        self.causal = causal
        self.register_buffer("tril", torch.tril(torch.ones(settings.block_size, settings.block_size)))
        self.alibi = alibi
        self.slope = None

    def forward(self, x):
        B, T, C = x.shape  # this head's slice of the embedding
        q, k, v = self.query(x), self.key(x), self.value(x)
        scores = q @ k.transpose(-2, -1) * C**-0.5  # (B, T, T)
        if self.alibi and self.slope is not None:
            dist = torch.arange(T, device=x.device).view(1, -1) - torch.arange(T, device=x.device).view(-1, 1)
            scores = scores + (-self.slope * dist.abs().float())
        if self.causal:
            scores = scores.masked_fill(self.tril == 0, float("-inf"))
        weights = F.softmax(scores, dim=-1)
        return weights @ v, weights
