# case: b15-06-mask
# modelled-on: minseok0809/transformer-implementation https://github.com/minseok0809/transformer-implementation/commit/7fc1363b86684736660b0bca6f02301dbd73b27d
# label: correct
# class: fixed
# pattern: the same translation transformer after the commit "masked self attention": the collate function stacks float zero (S, S) source masks and PyTorch-style additive causal target masks (0.0 allowed, -inf above the diagonal), and the multi-head attention fills with -inf where mask != 0 before the softmax
# why: correct: the masks are additive (0 = allowed), and the fill now lands exactly on their non-zero entries: the -inf future of the target mask is filled (it already is -inf), the allowed past keeps its score, and the all-zero source mask masks nothing; no row is fully masked because the diagonal is always allowed; a reader expecting keep masks would call mask != 0 inverted
# looks-like: ATT002, ATT007
# source: https://github.com/minseok0809/transformer-implementation https://github.com/minseok0809/transformer-implementation/commit/7fc1363b86684736660b0bca6f02301dbd73b27d model/sublayer.py
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
            scores.masked_fill_(mask != 0, float("-inf"))

        probs = nn.Softmax(dim=-1)(scores)
        return self.linear(self.merge_heads(torch.matmul(probs, v)))
