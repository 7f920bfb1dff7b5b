import torch


def padding_mask(input_ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    """[B, S] bool, True where the position is padding."""
    return input_ids.eq(pad_id)


def lengths(input_ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    return (~padding_mask(input_ids, pad_id)).sum(-1)
