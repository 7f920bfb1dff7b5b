import torch


def attention(q, k, v, keep):
    # keep: (B, 1, 1, S) float 0/1, 1 = attend
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s - 1e4 * (1.0 - keep)
    return s.softmax(-1) @ v


def run(q, k, v, ids, pad):
    return attention(q, k, v, (ids != pad).float()[:, None, None, :])
