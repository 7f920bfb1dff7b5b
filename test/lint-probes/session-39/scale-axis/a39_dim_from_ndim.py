import math
import torch
import torch.nn.functional as F


def attend(q, k, v):
    # any leading axes: q (..., T, d), k, v (..., S, d)
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    w = F.softmax(s, dim=s.dim() - 1)
    return torch.matmul(w, v)


def attend2(q, k, v):
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    return torch.matmul(torch.softmax(s, len(s.shape) - 1), v)
