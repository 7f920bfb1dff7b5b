# case: b3-57-softmax
# modelled-on: seanswyi/transformer-implementation https://github.com/seanswyi/transformer-implementation/commit/464b97ec5b30b513ff761a561a5cc73b7ee544af
# label: correct
# class: fixed
# pattern: an encoder-decoder transformer whose heads are separate single-head modules on 3-D (batch, length, d_k) tensors; a functional attention scales q @ k^T by 1/sqrt(d_k) and, for the decoder's masked self-attention, adds triu(ones, diagonal=1) * -1e9 (the size of the scores) before the softmax
# why: the state after both fixes (6c380c9 and 464b97e): the additive matrix is -1e9 strictly above the diagonal and 0 elsewhere, so the future keys get no weight and no row is fully masked (float32 holds -1e9); the softmax runs over the last axis, the keys of the (batch, len_q, len_k) scores
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/seanswyi/transformer-implementation https://github.com/seanswyi/transformer-implementation/commit/464b97ec5b30b513ff761a561a5cc73b7ee544af src/models/multihead_attention.py
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
        future = torch.triu(torch.ones(size=scores.shape), diagonal=1) * (-1e9)
        if scores.is_cuda:
            future = future.to("cuda")
        else:
            logger.warning("Not using GPU!")
        scores += future

    weights = F.softmax(scores, dim=-1)
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
