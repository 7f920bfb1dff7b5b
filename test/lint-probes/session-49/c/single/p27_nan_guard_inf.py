import torch
import torch.nn.functional as F


def attend(q, k, v, key_pad):
    """key_pad: (B, S) True at padding; an all-padding example (empty retrieval) is allowed."""
    s = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.shape[-1] ** 0.5
    s = s.masked_fill(key_pad[:, None, None, :], float("-inf"))
    w = F.softmax(s, dim=-1)
    w = torch.nan_to_num(w, nan=0.0)
    return torch.einsum("bhqk,bhkd->bhqd", w, v)
