import math
import torch


def attend(q, k, v, pad):
    # pad: (B, S) bool, True = padding
    s = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.size(-1))
    s = s + pad[:, None, None, :].to(s.dtype) * torch.finfo(s.dtype).min
    return torch.einsum("bhts,bhsd->bhtd", s.softmax(-1), v)
