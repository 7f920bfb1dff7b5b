import torch


def causal_mask(T: int, device=None) -> torch.Tensor:
    """Additive (T, T) mask: 0 where key j <= query i, -inf above the diagonal."""
    full = torch.full((T, T), float("-inf"), device=device)
    return torch.triu(full, diagonal=1)
