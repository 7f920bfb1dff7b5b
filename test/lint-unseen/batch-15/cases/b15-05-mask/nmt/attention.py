# case: b15-05-mask
# modelled-on: minseok0809/transformer-implementation https://github.com/minseok0809/transformer-implementation/commit/adf22275d3e7b5b07583f61c0f7f2284b258baaf
# label: buggy
# class: real-bug
# pattern: a from-scratch translation transformer; the collate function stacks, per example, an all-False bool (S, S) source mask and PyTorch-style additive causal target masks (0.0 on and below the diagonal, -inf above, built by triu(ones) == 1 transposed, then masked_fill to -inf / 0.0); the multi-head attention stacks the mask once per head, scales q @ k^T by sqrt of the head width and calls masked_fill_(mask == 0, -1e9) before the softmax; the decoder passes the target mask to its self-attention, the encoder the source mask
# why: buggy: masked_fill_(mask == 0) treats the masks as keep masks, but the target mask is additive (0 = allowed): every allowed past position (0.0) is filled with -1e9 and the future (-inf, not 0) keeps its score, so the decoder attends only to later tokens; the all-False source mask is == 0 everywhere, so every encoder score becomes -1e9 (uniform attention); the next commit ("masked self attention") fills where mask != 0 with -inf and makes the source mask a float zero mask
# source: https://github.com/minseok0809/transformer-implementation https://github.com/minseok0809/transformer-implementation/commit/adf22275d3e7b5b07583f61c0f7f2284b258baaf model/sublayer.py
import math

import torch
from torch import nn


class HeadsAttention(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = int(embedding_dim / num_heads)
        self.all_head_size = self.head_size * num_heads
        self.query = nn.Linear(embedding_dim, self.all_head_size)
        self.key = nn.Linear(embedding_dim, self.all_head_size)
        self.value = nn.Linear(embedding_dim, self.all_head_size)
        self.linear = nn.Linear(self.all_head_size, embedding_dim)

    def split_heads(self, x):
        x = x.view(*(x.size()[:-1] + (self.num_heads, self.head_size)))
        return x.permute(0, 2, 1, 3)

    def per_head(self, mask):
        return torch.stack([mask] * self.num_heads, dim=1)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*(x.size()[:-2] + (self.all_head_size,)))

    def forward(self, x, y, mask):
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(y))
        v = self.split_heads(self.value(y))
        mask = self.per_head(mask)

        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(k.size(-1))
        if mask is not None:
            scores.masked_fill_(mask == 0, -1e9)  # expect: ATT002

        probs = nn.Softmax(dim=-1)(scores)
        return self.linear(self.merge_heads(torch.matmul(probs, v)))
