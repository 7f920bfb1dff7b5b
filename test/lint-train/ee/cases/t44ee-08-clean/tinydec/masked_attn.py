# case: t44ee-08-clean
# modelled-on: AniRoy10/Coding-a-Decoder-only-Transformer- https://github.com/AniRoy10/Coding-a-Decoder-only-Transformer-/commit/8cf83e3df1bd8d55741b305b77e735cced4f9777
# label: correct
# class: clean
# pattern: a teaching decoder-only Transformer split into modules: the masked multi-head attention builds `triu(ones(T, T), diagonal=1).bool()` inside forward and fills it in place with `masked_fill_(..., -inf)` before a softmax over the last axis; the block and the decoder (another file) call it with the embedded tokens and no mask of their own
# why: correct: the strict upper triangle is the future, True is what masked_fill hides, the in-place fill keeps its result, and every row keeps its diagonal, so -inf empties no row
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/AniRoy10/Coding-a-Decoder-only-Transformer- https://github.com/AniRoy10/Coding-a-Decoder-only-Transformer-/commit/8cf83e3df1bd8d55741b305b77e735cced4f9777 MMHA.py
import math

import torch
import torch.nn as nn


class CausalHeads(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        assert dim % heads == 0, "dim must be divisible by heads"
        self.heads = heads
        self.per_head = dim // heads
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.merge = nn.Linear(dim, dim)

    def split(self, t, b, n):
        return t.view(b, n, self.heads, self.per_head).transpose(1, 2)

    def forward(self, x):
        b, n, dim = x.shape
        q = self.split(self.to_q(x), b, n)
        k = self.split(self.to_k(x), b, n)
        v = self.split(self.to_v(x), b, n)

        logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.per_head)
        ahead = torch.triu(torch.ones(n, n), diagonal=1).bool().to(x.device)
        logits.masked_fill_(ahead, float("-inf"))  # hide later tokens
        probs = torch.softmax(logits, dim=-1)

        mixed = torch.matmul(probs, v).transpose(1, 2).contiguous().view(b, n, dim)
        return self.merge(mixed)
