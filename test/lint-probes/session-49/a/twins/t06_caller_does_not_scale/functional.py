import torch


def attend(q, k, v, bias=None):
    """q is expected pre-scaled by the caller (the module folds head_dim ** -0.5 into its query)."""
    logits = torch.einsum("bhid,bhjd->bhij", q, k)
    if bias is not None:
        logits = logits + bias
    weights = logits.softmax(dim=-1)
    return torch.einsum("bhij,bhjd->bhid", weights, v)
