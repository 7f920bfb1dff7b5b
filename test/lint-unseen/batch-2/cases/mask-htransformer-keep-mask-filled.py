# case: mask-htransformer-keep-mask-filled
# modelled-on: lucidrains/h-transformer-1d https://github.com/lucidrains/h-transformer-1d/commit/5385d15aae8ff5273df4b0ce7fff1332a75015c4
# label: buggy
# class: real-bug
# pattern: hierarchical (H-matrix) attention: the user's keep mask (True = token) is padded with False, coarsened level by level with torch.any, turned into a block mask by the outer product of query and key masks, and handed to a nested half-attention function that normalises by exp and sums instead of calling softmax
# why: the nested function fills where the block mask is True, i.e. every pair of real tokens, and keeps the padding; commit 5385d15 ("fix bug with mask") changed it to masked_fill(~mask, ...)
# source: https://github.com/lucidrains/h-transformer-1d https://github.com/lucidrains/h-transformer-1d/commit/5385d15aae8ff5273df4b0ce7fff1332a75015c4 h_transformer_1d/h_transformer_1d.py
from math import ceil, log2

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


def exists(val):
    return val is not None


def masked_aggregate(tensor, mask=None, dim=-1, average=True):
    if not exists(mask):
        return tensor.mean(dim=dim) if average else tensor.sum(dim=dim)
    mask = mask[(..., *((None,) * (tensor.dim() - mask.dim())))]
    agg = tensor.masked_fill(~mask, 0.0).sum(dim=dim)
    return agg / mask.sum(dim=dim).clamp(min=1.0) if average else agg


def flip_every_two(t):
    t = rearrange(t, "b (n r) ... -> b n r ...", r=2)
    t = torch.flip(t, dims=(2,))  # attend to the off-diagonal blocks
    return rearrange(t, "b n r ... -> b (n r) ...")


class HAttention1D(nn.Module):
    def __init__(self, dim, *, heads=8, dim_head=64, block_size=16, eps=1e-8):
        super().__init__()
        self.eps, self.heads, self.block_size = eps, heads, block_size
        self.scale = dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, heads * dim_head * 3, bias=False)
        self.to_out = nn.Linear(heads * dim_head, dim)

    def forward(self, x, mask=None):
        # x: (b, n, dim); mask: (b, n) bool, True = token
        b, n, h, bsz, eps = *x.shape[:2], self.heads, self.block_size, self.eps
        padding = 2 ** ceil(log2(n)) - n
        if padding != 0:
            x = F.pad(x, (0, 0, 0, padding), value=0.0)
            if exists(mask):
                mask = F.pad(mask, (0, padding), value=False)

        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=h) for t in (q, k, v))
        if exists(mask):
            mask = repeat(mask, "b n -> (b h) n", h=h)
        q = q * self.scale

        qkvs = [(q, k, v, mask)]
        for _ in range(int(log2(x.shape[1] // bsz)) - 1):
            q, k, v = (rearrange(t, "b (n r) d -> b n r d", r=2) for t in (q, k, v))
            if exists(mask):
                mask = rearrange(mask, "b (n r) -> b n r", r=2)
            q, k = masked_aggregate(q, mask, dim=2), masked_aggregate(k, mask, dim=2)
            v = masked_aggregate(v, mask, dim=2, average=False)
            if exists(mask):
                mask = torch.any(mask, dim=2)
            qkvs.append((q, k, v, mask))

        def calculate_y_and_a(q, k, v, mask=None):
            S = einsum("... i d, ... j d -> ... i j", q, k)
            if exists(mask):
                S = S.masked_fill(mask, -torch.finfo(S.dtype).max)  # expect: ATT002
            S = S - torch.amax(S, dim=-1, keepdim=True)
            A = S.exp()
            y = einsum("... i j, ... j d -> ... i d", A, v)
            return rearrange(y, "b ... n d -> b (... n) d"), rearrange(A.sum(dim=-1), "b ... i -> b (... i)")

        to_blocks = lambda t: rearrange(t, "b (n z) ... -> b n z ...", z=bsz)
        Ys = []
        for ind, (q, k, v, mask) in enumerate(reversed(qkvs)):
            is_last = ind == len(qkvs) - 1
            q, k, v = (to_blocks(t) for t in (q, k, v))
            S_mask = None
            if exists(mask):
                mask = to_blocks(mask)
                k_mask = flip_every_two(mask) if not is_last else mask
                S_mask = rearrange(mask, "... n -> ... n ()") * rearrange(k_mask, "... n -> ... () n")
            if not is_last:
                k, v = (flip_every_two(t) for t in (k, v))
            Ys.append(calculate_y_and_a(q, k, v, mask=S_mask))

        Y, A = 0, 0
        for Y_level, A_level in Ys:
            if torch.is_tensor(Y):
                Y = repeat(Y, "b n d -> b (n r) d", r=2)
                A = repeat(A, "b n -> b (n r)", r=2)
            Y, A = Y_level + Y, A_level + A
        out = Y / rearrange(A + eps, "b n -> b n ()")
        out = rearrange(out, "(b h) n d -> b n (h d)", h=h)
        return self.to_out(out[:, :n])
