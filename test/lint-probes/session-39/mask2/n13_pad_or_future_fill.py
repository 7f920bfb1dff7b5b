import torch


def decoder_attention(q, k, v, tgt, pad):
    T = tgt.size(1)
    pad_mask = (tgt == pad)[:, None, None, :]  # True at padding keys
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tgt.device), 1)
    blocked = pad_mask | future
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s.masked_fill(blocked, float("-inf"))
    return s.softmax(-1) @ v
