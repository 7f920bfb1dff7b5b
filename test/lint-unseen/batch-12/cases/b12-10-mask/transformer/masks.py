import torch


def generate_square_subsequent_mask(size: int) -> torch.Tensor:
    """Square mask: future positions are float('-inf'), allowed positions float(0.0)."""
    mask = torch.triu(torch.ones(size, size), diagonal=1)
    mask = mask.masked_fill(mask == 1, float("-inf"))
    return mask


def make_padding_mask(ids: torch.Tensor, pad_id: int = 0) -> torch.Tensor:
    """(B, 1, S) boolean mask, True on real tokens."""
    return (ids != pad_id).unsqueeze(1)
