# case: b3-56-softmax
# modelled-on: seanswyi/transformer-implementation https://github.com/seanswyi/transformer-implementation/commit/6c380c9a1e3af066001cd0eebb5f82fc6e63b7a0
# label: buggy
# class: real-bug
# pattern: an encoder-decoder transformer whose heads are separate single-head modules on 3-D (batch, length, d_k) tensors; a functional attention scales q @ k^T by 1/sqrt(d_k) and, for the decoder's masked self-attention, builds a lower-triangular matrix of ones the size of the scores and applies it to them before the softmax
# why: two defects, each fixed by its own commit a day apart: the 0/1 tril matrix is multiplied into the scores, so the future positions get a score of 0 instead of being removed and still receive weight (6c380c9, "the softmax was messing everything up", adds triu(ones, diagonal=1) * -1e9 instead); and the softmax runs over dim=1, the query axis of the (batch, len_q, len_k) scores, so each key's weights over the queries sum to one instead of each query's weights over the keys (464b97e, "Fixed attention softmax so that it's on the right dimension", uses dim=-1)
# source: https://github.com/seanswyi/transformer-implementation https://github.com/seanswyi/transformer-implementation/commit/6c380c9a1e3af066001cd0eebb5f82fc6e63b7a0 src/models/multihead_attention.py
import logging

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger()


def attention(q, k, v, d_k, mask=False):
    scores = torch.matmul(q, k.transpose(2, 1))
    scores /= np.sqrt(d_k)

    if mask:
        keep = torch.tril(torch.ones(size=scores.shape))
        if scores.is_cuda:
            keep = keep.to("cuda")
        else:
            logger.warning("Not using GPU!")
        scores *= keep  # expect: ATT006

    weights = F.softmax(scores, dim=1)  # expect: ATT001
    return torch.matmul(weights, v)


class SingleHeadAttention(nn.Module):
    def __init__(self, args, mask=False):
        super().__init__()
        self.mask = mask
        self.d_k = args.d_k
        self.w_q = nn.Linear(args.d_model, args.d_k)
        self.w_k = nn.Linear(args.d_model, args.d_k)
        self.w_v = nn.Linear(args.d_model, args.d_v)

    def forward(self, q, k, v):
        return attention(self.w_q(q), self.w_k(k), self.w_v(v), d_k=self.d_k, mask=self.mask)


class MultiHeadAttention(nn.Module):
    def __init__(self, args, mask=False):
        super().__init__()
        self.heads = nn.ModuleList([SingleHeadAttention(args, mask=mask) for _ in range(args.num_heads)])
        self.w_o = nn.Linear(args.num_heads * args.d_v, args.d_model)

    def forward(self, q, k, v):
        return self.w_o(torch.cat([head(q, k, v) for head in self.heads], dim=2))


class DecoderSelfAttention(nn.Module):
    """The decoder's masked self-attention followed by its cross-attention over the encoder output."""

    def __init__(self, args):
        super().__init__()
        self.masked_attention = MultiHeadAttention(args, mask=True)
        self.cross_attention = MultiHeadAttention(args)

    def forward(self, x, memory):
        x = x + self.masked_attention(x, x, x)
        return x + self.cross_attention(x, memory, memory)
