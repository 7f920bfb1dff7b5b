import math
import torch
import torch.nn.functional as F


def attention(q, k, v):
    # q: (B, H, T, d), k, v: (B, H, S, d)
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return F.softmax(s, 3) @ v
