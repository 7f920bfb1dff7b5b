import torch


def attend(q, k, v):
    # q: (B, T, H, d), k, v: (B, S, H, d); scores (B, S, T, H)
    s = torch.einsum("bshd,bthd->bsth", k, q) / q.shape[-1] ** 0.5
    w = torch.softmax(s, dim=1)  # over S
    return torch.einsum("bsth,bshd->bthd", w, v)
