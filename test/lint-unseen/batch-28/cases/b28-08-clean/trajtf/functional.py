import math
from copy import deepcopy

import numpy
import torch
import torch.nn as nn
from torch.nn.functional import softmax


def replicate(module, n):
    assert isinstance(module, nn.Module)
    return nn.ModuleList([deepcopy(module) for _ in range(n)])


def no_peek_mask(size):
    """Mask out subsequent positions."""
    shape = (1, size, size)
    mask = numpy.triu(numpy.ones(shape), k=1).astype('uint8')
    return torch.from_numpy(mask) == 0


def scaled_attention(query, key, value, mask=None, dropout=None):
    """Compute 'Scaled Dot Product Attention'."""
    d_k = query.size(-1)
    logits = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        logits = logits.masked_fill_(mask == 0, value=-1e9)
    weights = softmax(logits, dim=-1)
    if dropout is not None:
        weights = dropout(weights)
    return torch.matmul(weights, value), weights
