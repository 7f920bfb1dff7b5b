import torch
import torch.nn.functional as F


def attention_with_entropy(q, k, v, keep):
    """Returns the output and the mean entropy of the weights over real queries (for logging)."""
    scores = q @ k.transpose(-1, -2) / q.size(-1) ** 0.5
    scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))
    w = F.softmax(scores, dim=-1)
    out = w @ v
    logw = torch.log(w.clamp_min(1e-12))
    ent = -(w * logw).sum(-1)  # (B, H, T)
    qmask = keep[:, None, :].to(ent.dtype)
    mean_ent = (ent * qmask).sum() / qmask.sum().clamp_min(1.0) / ent.size(1)
    return out, mean_ent
