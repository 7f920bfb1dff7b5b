import torch


def lower_triangle(seq_len, device):
    """(1, 1, T, T) mask of ones on and below the diagonal: 1 = may attend."""
    ones = torch.ones(seq_len, seq_len, device=device)
    return torch.tril(ones).unsqueeze(0).unsqueeze(0)
