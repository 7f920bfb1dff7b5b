import torch


def restrict_and_renormalise(weights, allowed, eps=1e-9):
    """Zero the weights outside `allowed` and make each row sum to one again."""
    weights = weights * allowed.to(weights.dtype)
    return weights / (weights.sum(dim=-1, keepdim=True) + eps)
