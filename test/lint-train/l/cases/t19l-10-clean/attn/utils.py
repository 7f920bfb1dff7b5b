import torch


def broadcast_masked_fill(scores: torch.Tensor, mask: torch.Tensor, value: float = -float("inf")) -> torch.Tensor:
    """scores: (*batch, *nom1, nom2); mask: (*batch, nom2), True where the mask selects."""
    *batch, n = mask.size()
    mask = mask.view(*batch, *(1,) * (scores.dim() - mask.dim()), n).expand_as(scores)
    return scores.masked_fill(mask, value)
