import torch


def weighted_sum(scores, values, mask=None):
    """scores: (B, L, S) already masked by the caller; mask: (B, S) 0/1, re-applied to clean the rows."""
    w = torch.softmax(scores, dim=-1)
    if mask is not None:
        w = w * mask[:, None, :]
        w = w / w.sum(-1, keepdim=True).clamp(min=1e-6)
    return torch.bmm(w, values)
