# case: b43-03-clean
# modelled-on: lucidrains/adjacent-attention-network https://github.com/lucidrains/adjacent-attention-network/commit/de1f9832e1ce49056d3e60096acf83d7e59b051c
# label: correct
# class: clean
# pattern: graph attention restricted to each node's neighbours (a folder: the attention layer and the network that builds its neighbour lists): the network turns a boolean adjacency matrix into, per node, the indices of its neighbours and a 0/1 float mask from topk (1 = a real neighbour, 0 = a padding slot); the layer gathers one key and value per neighbour slot (keys shaped b h n a d), prepends a learned null key / value with mask value 1, scores with einsum 'b h n d, b h n a d -> b h n a' times dim_head ** -0.5, fills ~mask.bool() with -finfo.max and takes the softmax over the neighbour axis a
# why: correct: the float mask from topk is 1 for kept neighbours, so ~mask.bool() selects exactly the padding slots; -finfo(dtype).max masks in any float dtype; every row keeps at least the null slot (padded with 1), so no row is all masked; the per-node key set is gathered explicitly, so the einsum over d is already q . k for each neighbour (no transpose needed); dim_head ** -0.5 is the per-head scale
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/lucidrains/adjacent-attention-network https://github.com/lucidrains/adjacent-attention-network/commit/de1f9832e1ce49056d3e60096acf83d7e59b051c adjacent_attention_network/adjacent_attention_network.py
import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


def gather_rows(values, index):
    width = values.shape[-1]
    return values.gather(1, index[:, :, None].expand(-1, -1, width))


class NeighbourAttention(nn.Module):
    def __init__(self, *, dim, dim_head=64, heads=4, dropout=0.0):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner = dim_head * heads
        self.qkv = nn.Linear(dim, inner * 3, bias=False)
        self.out = nn.Linear(inner, dim)
        self.empty_key = nn.Parameter(torch.randn(heads, dim_head))
        self.empty_value = nn.Parameter(torch.randn(heads, dim_head))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, neighbour_idx, neighbour_mask):
        b, n, _ = x.shape
        h = self.heads
        idx = repeat(neighbour_idx, "b n a -> (b h) (n a)", h=h)

        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = rearrange(q, "b n (h d) -> b h n d", h=h)
        k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=h) for t in (k, v))
        k, v = gather_rows(k, idx), gather_rows(v, idx)
        k, v = (rearrange(t, "(b h) (n a) d -> b h n a d", h=h, n=n) for t in (k, v))

        ek = rearrange(self.empty_key, "h d -> 1 h 1 1 d").expand(b, -1, n, 1, -1)
        ev = rearrange(self.empty_value, "h d -> 1 h 1 1 d").expand(b, -1, n, 1, -1)
        k = torch.cat((ek, k), dim=-2)
        v = torch.cat((ev, v), dim=-2)
        keep = F.pad(neighbour_mask, (1, 0), value=1)

        sim = einsum("b h n d, b h n a d -> b h n a", q, k) * self.scale
        keep = rearrange(keep.bool(), "b n a -> b 1 n a")
        sim = sim.masked_fill(~keep, -torch.finfo(sim.dtype).max)

        attn = self.drop(sim.softmax(dim=-1))
        out = einsum("b h n a, b h n a d -> b h n d", attn, v)
        return self.out(rearrange(out, "b h n d -> b n (h d)"))
