# case: scale-xlm-scale-q-before-matmul
# modelled-on: facebookresearch/XLM https://github.com/facebookresearch/XLM/pull/357
# label: correct
# pattern: XLM's MultiHeadAttention divides q by sqrt(dim_per_head) before matmul(q, k.transpose(2, 3)); PR #357 claimed this was an error and huggingface/transformers#22444 reverted the same change
# why: (q / sqrt(d)) k^T == (q k^T) / sqrt(d); the mask is a keep mask turned into (mask == 0) before masked_fill_
# looks-like: ATT003, ATT002, ATT007
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, n_heads: int, dim: int, dropout: float):
        super().__init__()
        self.n_heads = n_heads
        self.dim = dim
        self.dropout = dropout
        assert self.dim % self.n_heads == 0
        self.q_lin = nn.Linear(dim, dim)
        self.k_lin = nn.Linear(dim, dim)
        self.v_lin = nn.Linear(dim, dim)
        self.out_lin = nn.Linear(dim, dim)

    def forward(self, input, mask, kv=None):
        """input: (bs, qlen, dim); mask: (bs, klen) keep mask, or (bs, klen, klen) for causal."""
        bs, qlen, dim = input.size()
        klen = qlen if kv is None else kv.size(1)
        n_heads = self.n_heads
        dim_per_head = dim // n_heads
        mask_reshape = (bs, 1, qlen, klen) if mask.dim() == 3 else (bs, 1, 1, klen)

        def shape(x):
            return x.view(bs, -1, n_heads, dim_per_head).transpose(1, 2)

        def unshape(x):
            return x.transpose(1, 2).contiguous().view(bs, -1, n_heads * dim_per_head)

        q = shape(self.q_lin(input))
        k = shape(self.k_lin(input if kv is None else kv))
        v = shape(self.v_lin(input if kv is None else kv))

        q = q / math.sqrt(dim_per_head)
        scores = torch.matmul(q, k.transpose(2, 3))  # (bs, n_heads, qlen, klen)
        mask = (mask == 0).view(mask_reshape).expand_as(scores)
        scores.masked_fill_(mask, -float("inf"))

        weights = F.softmax(scores.float(), dim=-1).type_as(scores)
        weights = F.dropout(weights, p=self.dropout, training=self.training)
        context = unshape(torch.matmul(weights, v))
        return self.out_lin(context)
