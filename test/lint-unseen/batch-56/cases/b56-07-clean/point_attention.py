# case: b56-07-clean
# modelled-on: lucidrains/se3-transformer-pytorch https://github.com/lucidrains/se3-transformer-pytorch/commit/e1669ee69345c271b7aa0a3aeeda452d32e26736
# label: correct
# class: clean
# pattern: neighbourhood attention over a point cloud (the type-0 path of an SE(3)-equivariant transformer), a folder: each node's query attends only over the keys of its k nearest other nodes, gathered per node into (b, h, i, j, d); the node's own key, learned null keys and global keys are concatenated in front of the neighbour keys, and the boolean neighbour mask (True = usable neighbour) from a helper module is left-padded with True before masked_fill(~mask, -finfo.max); the helper removes the diagonal before ranking distances and, in causal mode, blocks later nodes with triu() on the (n, n - 1) distance matrix
# why: correct: the keys are per query, so the score einsum "b h i d, b h i j d -> b h i j" makes the last axis the query's own key set and softmax(dim=-1) normalises over it; the neighbour mask is a keep mask and the fill uses its inverse; the extra keys are put in front, so padding the mask on the left with True keeps exactly those columns and lines the rest up with the neighbours; the self, null and global keys are always kept, so no row is empty; in the helper, once the diagonal is removed column j of row i is node j + 1 when j >= i, so triu() with diagonal 0 marks exactly the later nodes; the scale is dim_head ** -0.5; there is no cache
# looks-like: ATT001, ATT002, ATT005, ATT007, ATT008
# source: https://github.com/lucidrains/se3-transformer-pytorch https://github.com/lucidrains/se3-transformer-pytorch/commit/e1669ee69345c271b7aa0a3aeeda452d32e26736 se3_transformer_pytorch/se3_transformer_pytorch.py
from typing import Optional

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn

from neighbors import gather_rows, nearest_neighbors


class NeighbourhoodAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, attend_self=True, null_kv=True, global_dim=None):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_k = nn.Linear(dim, inner, bias=False)
        self.to_v = nn.Linear(dim, inner, bias=False)
        self.to_out = nn.Linear(inner, dim)
        self.attend_self = attend_self
        self.null_k = nn.Parameter(torch.zeros(heads, dim_head)) if null_kv else None
        self.null_v = nn.Parameter(torch.zeros(heads, dim_head)) if null_kv else None
        self.global_kv = nn.Linear(global_dim, 2 * inner, bias=False) if global_dim else None

    def forward(self, x, coords, k=16, radius=1e5, causal=False, node_mask=None, global_feats: Optional[torch.Tensor] = None):
        h = self.heads
        idx, usable = nearest_neighbors(coords, k, radius, causal=causal, node_mask=node_mask)

        q = rearrange(self.to_q(x), "b i (h d) -> b h i d", h=h)
        keys = rearrange(gather_rows(self.to_k(x), idx), "b i j (h d) -> b h i j d", h=h)
        vals = rearrange(gather_rows(self.to_v(x), idx), "b i j (h d) -> b h i j d", h=h)

        front_k, front_v = [], []
        if self.attend_self:
            front_k.append(rearrange(self.to_k(x), "b i (h d) -> b h i () d", h=h))
            front_v.append(rearrange(self.to_v(x), "b i (h d) -> b h i () d", h=h))
        if self.null_k is not None:
            front_k.append(repeat(self.null_k, "h d -> b h i () d", b=x.shape[0], i=x.shape[1]))
            front_v.append(repeat(self.null_v, "h d -> b h i () d", b=x.shape[0], i=x.shape[1]))
        if global_feats is not None and self.global_kv is not None:
            gk, gv = self.global_kv(global_feats).chunk(2, dim=-1)
            front_k.append(repeat(gk, "b j (h d) -> b h i j d", h=h, i=x.shape[1]))
            front_v.append(repeat(gv, "b j (h d) -> b h i j d", h=h, i=x.shape[1]))
        keys = torch.cat([*front_k, keys], dim=3)
        vals = torch.cat([*front_v, vals], dim=3)

        sim = einsum("b h i d, b h i j d -> b h i j", q, keys) * self.scale
        keep = rearrange(usable, "b i j -> b () i j")
        keep = F.pad(keep, (sim.shape[-1] - keep.shape[-1], 0), value=True)
        sim = sim.masked_fill(~keep, -torch.finfo(sim.dtype).max)

        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h i j d -> b h i d", attn, vals)
        return self.to_out(rearrange(out, "b h i d -> b i (h d)"))
