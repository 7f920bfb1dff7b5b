import torch
import torch.nn.functional as F


def masked_attention(q, k, v, q_valid, k_valid):
    """q_valid: (B, L), k_valid: (B, S). Padded queries get zero output, padded keys no weight."""
    scores = torch.einsum("bld,bsd->bls", q, k) * q.shape[-1] ** -0.5
    scores = scores.masked_fill(~k_valid[:, None, :], float("-inf"))
    scores = scores.masked_fill(~q_valid[:, :, None], 0.0)  # keep padded query rows finite
    w = F.softmax(scores, dim=-1)
    w = w * q_valid[:, :, None].to(w.dtype)
    return torch.einsum("bls,bsd->bld", w, v)
