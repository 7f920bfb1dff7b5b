import torch


def causal_float_mask(n):
    m = (torch.triu(torch.ones(n, n)) == 1).transpose(0, 1).float()
    m = m.masked_fill(m == 0, float('-inf')).masked_fill(m == 1, float(0.0))
    return m
