import torch
from torch import Tensor


def pad_mask(tokens: Tensor, pad_id: int) -> Tensor:
    """True where a key position is padding; (batch, 1, length) so it broadcasts over the queries."""
    return (tokens == pad_id).unsqueeze(1)


def future_mask(tokens: Tensor) -> Tensor:
    """True above the diagonal: the positions a query may not look at yet; (1, length, length)."""
    length = tokens.size(1)
    upper = torch.triu(torch.ones(length, length, dtype=torch.long), diagonal=1)
    return (upper == 1).unsqueeze(0)
