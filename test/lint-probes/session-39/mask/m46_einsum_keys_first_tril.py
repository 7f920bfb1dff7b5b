import torch


def attend(q, k, v):
    # q, k, v: (B, T, D); scores laid out (B, keys, queries)
    T = q.size(1)
    hide = torch.tril(torch.ones(T, T, device=q.device), diagonal=-1) * -1e9  # key after query: below the diagonal here
    s = torch.einsum("bkd,bqd->bkq", k, q) / q.size(-1) ** 0.5 + hide
    w = s.softmax(dim=1)  # over the keys
    return torch.einsum("bkq,bkd->bqd", w, v)
