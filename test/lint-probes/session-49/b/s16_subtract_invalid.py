import torch


def attn(q, k, v, ids, pad):
    valid = ids != pad
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s - 1e9 * (~valid).float()[:, None, :]
    return torch.softmax(s, dim=-1) @ v
