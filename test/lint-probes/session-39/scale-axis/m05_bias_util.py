import torch


def causal_bias(n):
    return torch.full((n, n), float("-inf")).triu(1)
