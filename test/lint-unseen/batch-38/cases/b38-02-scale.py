# case: b38-02-scale
# modelled-on: lucidrains/axial-attention https://github.com/lucidrains/axial-attention/commit/d802fdc60e9117feaf7d93cfa1c516a5217251fb
# label: correct
# class: fixed
# pattern: axial attention after the author's rewrite: the multi-head dot-product attention becomes a free function attend(q, k, v, heads) shared by self-attention (keys from x) and cross-attention (keys from a context, as the induced-set attention of the Set Transformer uses it); heads are folded into the batch with reshape + transpose, the scores are scaled by (d // h) ** -0.5 where d is the projected width of q, and the softmax runs over the keys
# why: correct: d here is the width of the projected queries (heads * dim_heads), so (d // h) ** -0.5 is 1/sqrt(head width), the scale of scaled dot-product attention; the softmax is over the key axis of 'bij' and the einsum with the values sums over that same axis
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/lucidrains/axial-attention https://github.com/lucidrains/axial-attention/commit/d802fdc60e9117feaf7d93cfa1c516a5217251fb axial_attention/axial_attention.py
import torch
from torch import nn


def attend(q, k, v, heads):
    b, t, d = q.shape
    e = d // heads

    def split(y):
        return y.reshape(b, -1, heads, e).transpose(1, 2).reshape(b * heads, -1, e)

    q, k, v = split(q), split(k), split(v)
    sim = torch.einsum('bie,bje->bij', q, k) * ((d // heads) ** -0.5)
    sim = sim.softmax(dim=-1)
    out = torch.einsum('bij,bje->bie', sim, v)
    return out.reshape(b, heads, -1, e).transpose(1, 2).reshape(b, -1, d)


class Attend(nn.Module):
    def __init__(self, dim, heads, dim_heads=None):
        super().__init__()
        self.heads = heads
        dim_heads = dim // heads if dim_heads is None else dim_heads
        hidden = dim_heads * heads
        self.q_proj = nn.Linear(dim, hidden, bias=False)
        self.kv_proj = nn.Linear(dim, 2 * hidden, bias=False)
        self.out_proj = nn.Linear(hidden, dim)

    def forward(self, x, context=None):
        context = x if context is None else context
        q = self.q_proj(x)
        k, v = self.kv_proj(context).chunk(2, dim=-1)
        return self.out_proj(attend(q, k, v, self.heads))


class InducedSetBlock(nn.Module):
    """Set Transformer ISAB: a few learned points summarise the set, then the set reads them back."""

    def __init__(self, num_points, dim, heads):
        super().__init__()
        self.points = nn.Parameter(torch.randn(1, num_points, dim))
        self.gather = Attend(dim, heads)
        self.scatter = Attend(dim, heads)

    def forward(self, x):
        points = self.points.expand(x.shape[0], -1, -1)
        summary = self.gather(points, x)
        return self.scatter(x, summary)


class AlongAxis(nn.Module):
    def __init__(self, perm, inner):
        super().__init__()
        self.perm = perm
        self.back = [perm.index(i) for i in range(len(perm))]
        self.inner = inner

    def forward(self, x):
        moved = x.permute(*self.perm)
        shape = moved.shape
        out = self.inner(moved.reshape(-1, shape[-2], shape[-1]))
        return out.reshape(*shape).permute(*self.back)


class AxialAttention(nn.Module):
    def __init__(self, dim, perms, heads=8, dim_heads=None):
        super().__init__()
        self.per_axis = nn.ModuleList(AlongAxis(p, Attend(dim, heads, dim_heads)) for p in perms)

    def forward(self, x):
        return sum(attn(x) for attn in self.per_axis)
