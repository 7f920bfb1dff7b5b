import torch
from utils import normalise


def attend(q, k, v, lengths):
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    keep = (torch.arange(k.shape[1])[None, :] < lengths[:, None]).float()
    s = s * keep[:, None, :]
    w = normalise(s)
    return w @ v
