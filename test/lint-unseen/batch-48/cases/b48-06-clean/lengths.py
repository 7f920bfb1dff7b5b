import torch


def keep_from_lengths(lengths: torch.Tensor) -> torch.Tensor:
    """(B, T_max) boolean, True where the position is inside the sequence."""
    steps = torch.arange(int(lengths.max()), device=lengths.device, dtype=lengths.dtype)
    return steps[None, :] < lengths[:, None]
