import torch


def masked_softmax_manual(scores, mask, dim=-1):
    """A hand-written masked softmax: exponentiate, zero the masked entries, renormalise."""
    mask = mask.float()
    shifted = scores - scores.max(dim=dim, keepdim=True).values
    e = torch.exp(shifted) * mask
    return e / e.sum(dim=dim, keepdim=True).clamp_min(1e-13)


def attend(q, k, v, keep):
    s = torch.bmm(q, k.transpose(1, 2)) / q.size(-1) ** 0.5
    w = masked_softmax_manual(s, keep[:, None, :])
    return torch.bmm(w, v)
