import math
import torch
import torch.nn.functional as F


def attend(q, k, v):
    # q: (B, T, d), k, v: (B, S, d)
    B, T, d = q.shape
    S = k.shape[1]
    s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d)  # (B, T, S)
    w = F.softmax(s.view(-1, S), dim=1).view(B, T, S)
    return torch.bmm(w, v)
