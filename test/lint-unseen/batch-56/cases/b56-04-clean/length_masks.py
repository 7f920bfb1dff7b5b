import torch


def beyond_length(size: int, lengths: torch.Tensor) -> torch.Tensor:
    """(len(lengths), size) boolean tensor, True at the positions a series does not have."""
    steps = torch.arange(size, device=lengths.device)[None, :]
    return steps >= lengths[:, None]


def within_length(size: int, lengths: torch.Tensor) -> torch.Tensor:
    """The complement: True where the series has a value."""
    return ~beyond_length(size, lengths)
