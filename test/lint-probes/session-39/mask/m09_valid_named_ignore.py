import torch

PAD = 0


def attention(q, k, v, ids):
    # q, k, v: (B, H, T, D); ids: (B, T)
    valid = ids.eq(PAD)[:, None, None, :]  # (B, 1, 1, T); eq(PAD): True at padding despite the name
    s = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5
    s = s.masked_fill(valid, float("-inf"))
    return s.softmax(-1) @ v
