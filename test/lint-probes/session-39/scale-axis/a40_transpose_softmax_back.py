import math
import torch


def attend_keys_major(q, k, v):
    # q: (B, T, d), k, v: (B, S, d); scores built keys-major (B, S, T), normalised over S via a transpose round trip
    s = torch.bmm(k, q.transpose(1, 2)) / math.sqrt(q.size(-1))  # (B, S, T)
    w = s.transpose(1, 2).softmax(dim=-1).transpose(1, 2)  # still (B, S, T), each column sums to 1 over S
    return torch.bmm(w.transpose(1, 2), v)
