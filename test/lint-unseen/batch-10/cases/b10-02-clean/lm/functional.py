import math

import torch
from einops import einsum


def softmax(x: torch.Tensor, dim: int) -> torch.Tensor:
    shifted = x - x.amax(dim=dim, keepdim=True)
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)


def scaled_dot_product_attention(q, k, v, mask=None):
    """mask: boolean, True where a query may attend to a key (the reference convention of the course)."""
    scores = einsum(q, k, "b ... q d, b ... k d -> b ... q k") / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, -torch.inf)
    weights = softmax(scores, -1)
    return einsum(weights, v, "b ... q k, b ... k d -> b ... q d")
