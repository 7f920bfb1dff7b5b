import math
import torch


def attention(q, kT, v):
    # q: (B, H, T, D); kT: (B, H, D, S) keys stored transposed; v: (B, H, S, D)
    d = kT.size(-2)
    scores = torch.matmul(q, kT) / math.sqrt(d)
    return torch.matmul(scores.softmax(-1), v)
