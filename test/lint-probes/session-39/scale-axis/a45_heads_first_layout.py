import math
import torch


def attend(q, k, v):
    # heads first, then batch: q, k, v (H, B, T, d)
    s = torch.einsum("hbtd,hbsd->hbts", q, k) / math.sqrt(q.shape[-1])
    w = torch.softmax(s, dim=3)
    return torch.einsum("hbts,hbsd->hbtd", w, v)
