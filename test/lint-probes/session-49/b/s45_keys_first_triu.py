import torch


def key_major_attention(q, k, v):
    # scores laid out (keys, queries), normalised over the keys
    s = torch.einsum("bkd,bqd->bkq", k, q) / q.size(-1) ** 0.5
    T = q.size(1)
    future = torch.tril(torch.ones(T, T, dtype=torch.bool, device=q.device), diagonal=-1)  # key after query
    s = s.masked_fill(future, float("-inf"))
    w = s.softmax(dim=1)
    return torch.einsum("bkq,bkd->bqd", w, v)
