"""Causal mask helper: 1 where a query may look at a key, 0 above the diagonal."""

import torch


def lower_triangle(length: int, device=None) -> torch.Tensor:
    """
    For length=3:

        1 0 0
        1 1 0
        1 1 1

    returned with two leading singleton axes (batch, heads).
    """
    keep = torch.tril(torch.ones(length, length, device=device))
    return keep[None, None, :, :]
