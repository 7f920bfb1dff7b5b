import math
import torch


def attend_transposed(q, k, v):
    # q: (T, d), k: (S, d), v: (S, d); scores laid out (S, T): keys first
    s = k @ q.t() / math.sqrt(q.shape[-1])  # (S, T)
    w = torch.softmax(s, dim=0)  # over the keys
    return w.t() @ v  # (T, d)
