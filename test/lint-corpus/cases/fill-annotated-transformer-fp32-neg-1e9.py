# case: fill-annotated-transformer-fp32-neg-1e9
# modelled-on: harvardnlp/annotated-transformer https://github.com/harvardnlp/annotated-transformer/issues/118
# label: correct
# pattern: The Annotated Transformer: attention() fills mask == 0 with -1e9; masks are keep masks ((src != pad) and subsequent_mask == 0 of a triu); the model is trained in float32
# why: -1e9 is representable in float32 and the code never runs in half precision; mask == 0 inverts the keep masks where they are filled
# looks-like: ATT002, ATT007
import copy
import math

import torch
import torch.nn as nn


def subsequent_mask(size: int) -> torch.Tensor:
    attn_shape = (1, size, size)
    mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return mask == 0  # True on and below the diagonal


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    p_attn = scores.softmax(dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadedAttention(nn.Module):
    def __init__(self, h: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k = d_model // h
        self.h = h
        self.linears = nn.ModuleList([copy.deepcopy(nn.Linear(d_model, d_model)) for _ in range(4)])
        self.attn = None
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for all heads
        nbatches = query.size(0)
        query, key, value = [
            lin(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2) for lin, x in zip(self.linears, (query, key, value))
        ]
        x, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)


class Batch:
    def __init__(self, src, tgt=None, pad: int = 2):
        self.src = src
        self.src_mask = (src != pad).unsqueeze(-2)
        if tgt is not None:
            self.tgt = tgt[:, :-1]
            self.tgt_mask = (self.tgt != pad).unsqueeze(-2) & subsequent_mask(self.tgt.size(-1)).type_as(self.src_mask.data)
