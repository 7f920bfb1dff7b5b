import torch


def causal_keep(T, device=None):
    """Lower triangle: True where query i may see key j."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))
