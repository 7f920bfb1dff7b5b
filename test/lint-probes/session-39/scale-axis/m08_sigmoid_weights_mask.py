import math
import torch


def sigmoid_attend(q, k, v, keep):
    # keep: (B, 1, 1, S) 0/1; sigmoid attention needs no renormalisation
    s = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    w = torch.sigmoid(s - math.log(k.shape[-2])) * keep
    return w @ v
