import torch


def subsequent_mask(size):
    """(1, size, size) bool, True where a position may attend."""
    return torch.triu(torch.ones(1, size, size, dtype=torch.uint8), diagonal=1) == 0
