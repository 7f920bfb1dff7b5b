import math
import torch


def attend(q, k, v, keep):
    # keep: (B, S) bool, True = real key; (keep - 1) * 1e4 is 0 where kept, -1e4 where padded
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])  # (B, H, T, S)
    s = s + (keep[:, None, None, :].float() - 1.0) * 1e4
    return s.softmax(-1) @ v
