import math
import torch


def key_major_scores(q, k):
    # q: (B, T, d), k: (B, S, d) -> (B, S, T)
    return torch.bmm(k, q.transpose(1, 2)) / math.sqrt(q.size(-1))
