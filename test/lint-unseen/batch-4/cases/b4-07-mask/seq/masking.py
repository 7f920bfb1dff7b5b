import numpy as np
import torch
from torch import Tensor


def lengths_to_pad(lengths: Tensor) -> Tensor:
    """(batch,) lengths -> (batch, max_len) bool, True at the padded positions (to be filled with -inf)."""
    max_len = lengths.max().item()
    positions = torch.as_tensor(np.arange(max_len), device=lengths.device).unsqueeze(0)
    return torch.ge(positions, lengths.unsqueeze(1))


def future_positions(size: int) -> Tensor:
    """(size, size) bool, True above the diagonal (the positions a query must not see)."""
    upper = np.triu(np.full(shape=(size, size), fill_value=1, dtype=np.float32), k=1)
    return torch.as_tensor(upper).bool()
