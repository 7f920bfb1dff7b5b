import torch


def masked_softmax(logits, mask, dim=-1):
    """mask: bool, True where a position may be attended. Fully masked rows come out as zeros."""
    logits = logits.masked_fill(~mask, float("-inf"))
    probs = torch.softmax(logits, dim=dim)
    return probs.masked_fill(~mask.any(dim=dim, keepdim=True), 0.0)
