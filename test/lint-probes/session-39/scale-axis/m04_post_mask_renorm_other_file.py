import math
import torch

from m04_norm_util import renormalise


def window_attention(q, k, v, keep):
    # keep: (T, S) bool band of allowed pairs
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    w = renormalise(w.masked_fill(~keep, 0.0))
    return w @ v
