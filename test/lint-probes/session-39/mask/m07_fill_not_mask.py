import torch


def attend(q, k, v, mask):
    # q, k, v: (B, H, T, D); mask: (B, 1, 1, T) bool, True = attend
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.shape[-1] ** 0.5
    s = s.masked_fill(~mask, float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", s.softmax(-1), v)


def encode(q, k, v, ids, pad):
    mask = (ids != pad)[:, None, None, :]
    return attend(q, k, v, mask)
