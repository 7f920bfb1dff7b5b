import torch
from einops import rearrange
from torch import einsum


def attend(q, k, v, mask=None):
    # q, k, v: (b, h, n, d); mask: (b, n) bool, True = keep
    b, h, n, d = q.shape
    if mask is None:
        mask = torch.ones(b, n, device=q.device).bool()
    sim = einsum("b h i d, b h j d -> b h i j", q, k) * d**-0.5
    mask = rearrange(mask, "b j -> b () () j")
    sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)
    return einsum("b h i j, b h j d -> b h i d", sim.softmax(dim=-1), v)
