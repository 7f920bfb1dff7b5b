import torch


def attention(q, k, v, ids, pad_id):
    # q, k, v: (B, T, D)
    mask = (ids == pad_id)[:, None, :]  # (B, 1, T) True at padding
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    s = torch.where(mask, torch.full_like(s, -1e4), s)
    return s.softmax(-1) @ v
