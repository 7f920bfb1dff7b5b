import torch


def block_diagonal_keep(sizes, device=None):
    T = sum(sizes)
    m = torch.zeros(T, T, dtype=torch.bool, device=device)
    start = 0
    for n in sizes:
        m[start : start + n, start : start + n] = True
        start += n
    return m
