import torch


def scaled_logits(q, k):
    # q, k: (..., T, d) -> (..., T, S)
    d = q.size(-1)
    return torch.matmul(q, k.transpose(-1, -2)) * d ** -0.5
