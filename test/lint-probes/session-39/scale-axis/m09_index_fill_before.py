import math
import torch


def attend(q, k, v, pad):
    # pad: (B, S) bool True = padding; scores (B, T, S)
    s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.size(-1))
    s[pad.unsqueeze(1).expand_as(s)] = float("-inf")
    w = s.softmax(-1)
    w = w * (~pad).unsqueeze(1).float()
    return torch.bmm(w, v)
