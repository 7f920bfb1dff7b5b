import torch


def exp_normalise(logits, keep, dim=-1, eps=1e-12):
    """Softmax written out so that masked entries contribute exactly zero."""
    logits = logits - logits.amax(dim=dim, keepdim=True).detach()
    unnorm = logits.exp() * keep
    return unnorm / (unnorm.sum(dim=dim, keepdim=True) + eps)
