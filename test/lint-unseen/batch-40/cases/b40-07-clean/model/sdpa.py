"""Scaled dot-product attention; `mask` is 1 where attention is allowed."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    def __init__(self, dropout: float = 0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        if mask is not None:
            # the smallest finite value of the scores' dtype, not -1e9, which is out of float16's range
            floor = torch.finfo(logits.dtype).min
            logits = logits.masked_fill(mask == 0, floor)
        probs = self.drop(F.softmax(logits, dim=-1))
        return torch.matmul(probs, v), probs
