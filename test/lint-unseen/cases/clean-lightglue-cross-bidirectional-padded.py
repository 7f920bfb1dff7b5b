# case: clean-lightglue-cross-bidirectional-padded
# modelled-on: cvg/LightGlue https://github.com/cvg/LightGlue/blob/main/lightglue/lightglue.py
# label: correct
# class: clean
# pattern: bidirectional cross attention between two keypoint sets: one similarity matrix, softmax over its last axis for 0->1 and over the transposed matrix for 1->0, the scale split as scale**0.5 on both sides, padding masks combined as an outer product and -inf fills followed by nan_to_num
# why: attn10 is the softmax of sim^T over its last axis, i.e. over the keys of image 0 for each query of image 1, and it is transposed back before the einsum that sums over i; (scale**0.5)^2 = 1/sqrt(d_head) once; rows of padded keypoints that are fully -inf become NaN and are zeroed by nan_to_num, as the padded points are dropped anyway
# looks-like: ATT001, ATT004, ATT005, ATT007
# source: https://github.com/cvg/LightGlue https://github.com/cvg/LightGlue/commit/1fd587b6f5a7a0befd31188f1e5d2f05740006d7 lightglue/lightglue.py
from typing import Callable, List, Optional

import torch
import torch.nn.functional as F
from torch import nn


def pad_to_length(x: torch.Tensor, length: int):
    if length <= x.shape[-2]:
        return x, torch.ones_like(x[..., :1], dtype=torch.bool)
    pad = torch.ones(*x.shape[:-2], length - x.shape[-2], x.shape[-1], device=x.device, dtype=x.dtype)
    y = torch.cat([x, pad], dim=-2)
    mask = torch.zeros(*y.shape[:-1], 1, dtype=torch.bool, device=x.device)
    mask[..., : x.shape[-2], :] = True
    return y, mask


class CrossBlock(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, bias: bool = True) -> None:
        super().__init__()
        self.heads = num_heads
        dim_head = embed_dim // num_heads
        self.scale = dim_head**-0.5
        inner_dim = dim_head * num_heads
        self.to_qk = nn.Linear(embed_dim, inner_dim, bias=bias)
        self.to_v = nn.Linear(embed_dim, inner_dim, bias=bias)
        self.to_out = nn.Linear(inner_dim, embed_dim, bias=bias)

    def map_(self, func: Callable, x0: torch.Tensor, x1: torch.Tensor):
        return func(x0), func(x1)

    def forward(self, x0: torch.Tensor, x1: torch.Tensor, mask: Optional[torch.Tensor] = None) -> List[torch.Tensor]:
        qk0, qk1 = self.map_(self.to_qk, x0, x1)
        v0, v1 = self.map_(self.to_v, x0, x1)
        qk0, qk1, v0, v1 = map(
            lambda t: t.unflatten(-1, (self.heads, -1)).transpose(1, 2),
            (qk0, qk1, v0, v1),
        )
        qk0, qk1 = qk0 * self.scale**0.5, qk1 * self.scale**0.5
        sim = torch.einsum("bhid, bhjd -> bhij", qk0, qk1)
        if mask is not None:
            sim = sim.masked_fill(~mask, -float("inf"))
        attn01 = F.softmax(sim, dim=-1)
        attn10 = F.softmax(sim.transpose(-2, -1).contiguous(), dim=-1)
        m0 = torch.einsum("bhij, bhjd -> bhid", attn01, v1)
        m1 = torch.einsum("bhji, bhjd -> bhid", attn10.transpose(-2, -1), v0)
        if mask is not None:
            m0, m1 = m0.nan_to_num(), m1.nan_to_num()
        m0, m1 = self.map_(lambda t: t.transpose(1, 2).flatten(start_dim=-2), m0, m1)
        m0, m1 = self.map_(self.to_out, m0, m1)
        return x0 + m0, x1 + m1


def cross_layer(block: CrossBlock, desc0, desc1, length: int):
    desc0, mask0 = pad_to_length(desc0, length)
    desc1, mask1 = pad_to_length(desc1, length)
    mask = mask0 & mask1.transpose(-1, -2)
    return block(desc0, desc1, mask)
