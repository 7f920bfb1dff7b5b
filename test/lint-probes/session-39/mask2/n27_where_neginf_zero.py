import torch


def pad_bias(ids, pad):
    return torch.where(ids == pad, float("-inf"), 0.0)[:, None, None, :]  # -inf at padding


def attend(q, k, v, ids, pad):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + pad_bias(ids, pad)
    return s.softmax(-1) @ v
