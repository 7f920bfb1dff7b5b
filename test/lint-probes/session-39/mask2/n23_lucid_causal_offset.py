import torch
from torch import einsum


def causal_attend(q, k, v):
    # q: (b, h, i, d); k, v: (b, h, j, d) with j >= i (memory keys first)
    i, j = q.shape[-2], k.shape[-2]
    sim = einsum("b h i d, b h j d -> b h i j", q, k) * q.shape[-1] ** -0.5
    causal_mask = torch.ones((i, j), device=q.device, dtype=torch.bool).triu(j - i + 1)
    sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)
    return einsum("b h i j, b h j d -> b h i d", sim.softmax(dim=-1), v)
