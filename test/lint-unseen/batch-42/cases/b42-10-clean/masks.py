import torch


def keep_mask(ids, pad_id):
    """True for real tokens, False for padding; shaped to broadcast over heads and queries."""
    return (ids != pad_id)[:, None, None, :]


def future_mask(n):
    """True on and below the diagonal (a position may see itself and the past)."""
    return torch.tril(torch.ones(n, n)).bool()[None, None]
