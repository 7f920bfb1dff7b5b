import torch


def kq_layout(q, k, v):
    # q: (B, H, T, d), k, v: (B, H, S, d); scores laid out (B, H, S, T)
    s = torch.einsum("bhkd,bhqd->bhkq", k, q) * q.shape[-1] ** -0.5
    w = s.softmax(dim=-2)  # over keys
    return torch.einsum("bhkq,bhkd->bhqd", w, v)
