"""Masking helpers shaped like the framework's nn utilities (masks are True / 1 at real tokens)."""
import torch


def min_value_of_dtype(dtype):
    return torch.finfo(dtype).min


def replace_masked_values(tensor, mask, replace_with):
    """Puts replace_with wherever mask is False."""
    return tensor.masked_fill(~mask.bool(), replace_with)


def masked_softmax(vector, mask, dim=-1):
    """Softmax over dim where the masked positions get the dtype's lowest value first."""
    if mask is None:
        return torch.nn.functional.softmax(vector, dim=dim)
    while mask.dim() < vector.dim():
        mask = mask.unsqueeze(1)
    masked_vector = vector.masked_fill(~mask.bool(), min_value_of_dtype(vector.dtype))
    return torch.nn.functional.softmax(masked_vector, dim=dim)


def weighted_sum(matrix, attention):
    """(batch, len, dim) weighted by (batch, len) -> (batch, dim), or by (batch, n, len) -> (batch, n, dim)."""
    if attention.dim() == 2 and matrix.dim() == 3:
        return attention.unsqueeze(1).bmm(matrix).squeeze(1)
    return attention.bmm(matrix)
