import torch


def head_weights(q, k, scale):
    return torch.softmax(q @ k.transpose(-1, -2) * scale, dim=-1)


def restrict(w, allowed):
    return w * allowed
