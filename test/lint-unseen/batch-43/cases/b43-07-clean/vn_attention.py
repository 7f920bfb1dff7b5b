# case: b43-07-clean
# modelled-on: lucidrains/VN-transformer https://github.com/lucidrains/VN-transformer/commit/f5704924405d2eb9593f7aa7c58f4e0c475d46d5
# label: correct
# class: clean
# pattern: vector-neuron attention for 3-D point features (a folder: the VN attention module and the generic attend module it calls): features are (b, n, channels, 3); after the VN-linear projections the heads are split and the channel and coordinate axes are flattened together, (b, h, n, dim_head * 3), so the inner attend module scales by q.shape[-1] ** -0.5, i.e. (dim_head * 3) ** -0.5; the module also stores (dim_coor * dim_head) ** -0.5 as self.scale without passing it; a (b, n) key padding mask (True = keep) is reshaped to (b, 1, 1, n) and either passed to SDPA as a boolean attn_mask or filled where ~mask with -finfo.max before a softmax over the keys
# why: correct: the dot product runs over dim_head * 3 numbers per head (the Frobenius inner product of two dim_head x 3 matrices), so (dim_head * 3) ** -0.5 is the 1/sqrt(d) of the flattened width, the same value as the unused attribute; SDPA reads a boolean mask as True = attend, which is the keep mask's polarity, and the manual path inverts it with ~ before masked_fill; no causal attention
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/lucidrains/VN-transformer https://github.com/lucidrains/VN-transformer/commit/f5704924405d2eb9593f7aa7c58f4e0c475d46d5 VN_transformer/VN_transformer.py
import torch
from einops import rearrange
from torch import nn

from attend import Attend


class VectorLinear(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim_out, dim_in) / dim_in ** 0.5)

    def forward(self, x):
        # x: (b, n, dim_in, 3) -> (b, n, dim_out, 3), equivariant to rotations of the last axis
        return torch.einsum("b n d c, e d -> b n e c", x, self.weight)


class VectorAttention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, dim_coor=3, flash=False):
        super().__init__()
        self.heads = heads
        self.scale = (dim_coor * dim_head) ** -0.5
        inner = dim_head * heads
        self.to_q = VectorLinear(dim, inner)
        self.to_k = VectorLinear(dim, inner)
        self.to_v = VectorLinear(dim, inner)
        self.to_out = VectorLinear(inner, dim)
        self.attend = Attend(flash=flash)

    def forward(self, points, keep=None):
        coords = points.shape[-1]
        q, k, v = self.to_q(points), self.to_k(points), self.to_v(points)
        q, k, v = (rearrange(t, "b n (h d) c -> b h n (d c)", h=self.heads) for t in (q, k, v))
        out = self.attend(q, k, v, mask=keep)
        out = rearrange(out, "b h n (d c) -> b n (h d) c", c=coords)
        return self.to_out(out)
