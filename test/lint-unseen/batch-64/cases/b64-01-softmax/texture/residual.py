"""Pure-PyTorch versions of the two residual-encoding kernels (the library ships them as CUDA functions)."""
import torch


def scaled_l2(x, codewords, smoothing):
    """Smoothed squared distance of every descriptor to every codeword.

    x:          (B, N, D)  N descriptors of width D per image
    codewords:  (K, D)
    smoothing:  (K,)       one (negative) smoothing factor per codeword
    returns:    (B, N, K)  smoothing[k] * ||x[b, i] - codewords[k]||^2
    """
    offsets = x[:, :, None, :] - codewords[None, None, :, :]
    return offsets.pow(2).sum(dim=-1) * smoothing[None, None, :]


def aggregate(assign, x, codewords):
    """e[b, k] = sum_i assign[b, i, k] * (x[b, i] - codewords[k]).

    assign: (B, N, K), x: (B, N, D), codewords: (K, D)  ->  (B, K, D)
    """
    weighted = torch.bmm(assign.transpose(1, 2), x)  # (B, K, D)
    mass = assign.sum(dim=1).unsqueeze(-1)  # (B, K, 1)
    return weighted - mass * codewords.unsqueeze(0)
