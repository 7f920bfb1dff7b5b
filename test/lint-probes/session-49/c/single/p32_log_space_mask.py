import torch
import torch.nn.functional as F


def log_attention(q, k, v, keep):
    """Masks in log space after log_softmax, then renormalises with logsumexp."""
    s = torch.einsum("bqd,bkd->bqk", q, k) * q.shape[-1] ** -0.5
    logp = F.log_softmax(s, dim=-1)
    logp = logp + torch.log(keep[:, None, :].float().clamp_min(1e-30))
    logp = logp - torch.logsumexp(logp, dim=-1, keepdim=True)
    return torch.einsum("bqk,bkd->bqd", logp.exp(), v)
