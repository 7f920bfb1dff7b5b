import torch
from torch import Tensor


def mask_beyond_length(scores: Tensor, lengths: Tensor, fill: float = -1e30) -> Tensor:
    """scores: (batch, steps); steps at or after each sequence's length get `fill`."""
    batch, steps = scores.shape
    index = torch.arange(steps, dtype=scores.dtype, device=scores.device).expand(batch, steps)
    limit = lengths.unsqueeze(1).expand(batch, steps).to(index.dtype)
    padded = index >= limit
    return scores.masked_fill(padded, fill)
