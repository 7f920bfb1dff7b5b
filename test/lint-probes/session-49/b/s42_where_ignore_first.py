import torch


def attend(q, k, v, ids, pad_id):
    ignore = (ids == pad_id)[:, None, None, :]
    s = (q @ k.transpose(-1, -2)) * q.size(-1) ** -0.5
    s = torch.where(ignore, torch.full_like(s, float("-inf")), s)
    return s.softmax(-1) @ v
