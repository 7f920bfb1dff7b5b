import torch


def future_mask(tokens):
    """(1, L, L), True above the diagonal: positions a query may not look at."""
    _, length = tokens.shape
    upper = torch.triu(torch.ones(1, length, length, device=tokens.device), diagonal=1)
    return upper.bool()


def padding_mask(tokens, pad_id):
    """(..., 1, L), True on padded keys."""
    return (tokens == pad_id).unsqueeze(-2)
