import math
import torch


def attend(q, k, v, keep):
    # keep: (B, 1, T, S) bool; rows with no key at all come out as zeros, not NaN
    s = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    s = torch.where(keep, s, torch.tensor(float("-inf"), device=s.device))
    w = torch.softmax(s, dim=-1).nan_to_num(0.0)
    w = w * keep
    return w @ v
