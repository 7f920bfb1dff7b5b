import torch


def masked_mean(x: torch.Tensor, keep: torch.Tensor = None) -> torch.Tensor:
    """Mean over the sequence axis of x (B, L, D), counting only positions where keep (B, L) is 1."""
    if keep is None:
        return x.mean(dim=1)
    x = x * keep.unsqueeze(-1)
    return x.sum(dim=1) / keep.sum(dim=1, keepdim=True)
