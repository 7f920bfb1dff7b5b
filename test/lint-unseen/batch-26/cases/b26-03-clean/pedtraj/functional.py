# case: b26-03-clean
# modelled-on: FGiuliari/Trajectory-Transformer https://github.com/FGiuliari/Trajectory-Transformer/commit/baec1a1fe33f3c04bacb7ba563ae9cdac110d049
# label: correct
# class: clean
# pattern: a pedestrian-trajectory transformer (continuous x/y offsets, no tokens): a helper builds the decoder mask as numpy.triu(ones((1, n, n)), k=1).astype('uint8') turned into a tensor and compared == 0; the training loop builds the encoder mask as torch.ones((B, 1, T_obs)) (float) and repeats the decoder mask over the batch; the multi-head module unsqueezes the mask on axis 1 and the shared attention function divides by math.sqrt(d_k) read from the query, masked_fill_(mask == 0, value=-1e9) and softmax(dim=-1); prediction runs the decoder autoregressively, rebuilding the mask for the growing decoder input
# why: correct: triu(k=1) == 0 is True on and below the diagonal (a keep mask), so mask == 0 blocks exactly the future positions; the all-ones float encoder mask blocks nothing, which is right because observed tracks are never padded; (B, 1, 1, T) and (B, 1, n, n) broadcast over the heads; d_k is the per-head width
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/FGiuliari/Trajectory-Transformer https://github.com/FGiuliari/Trajectory-Transformer/commit/baec1a1fe33f3c04bacb7ba563ae9cdac110d049 transformer/functional.py
import math

import numpy
import torch
from torch.nn.functional import softmax


def subsequent_mask(size):
    shape = (1, size, size)
    upper = numpy.triu(numpy.ones(shape), k=1).astype("uint8")
    return torch.from_numpy(upper) == 0


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill_(mask == 0, value=-1e9)
    p = softmax(scores, dim=-1)
    if dropout is not None:
        p = dropout(p)
    return torch.matmul(p, value), p
