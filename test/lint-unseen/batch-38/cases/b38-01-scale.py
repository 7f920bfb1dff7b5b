# case: b38-01-scale
# modelled-on: lucidrains/axial-attention https://github.com/lucidrains/axial-attention/commit/cd648b6d799e9bec6242bba6f9ac3616c876d28a
# label: buggy
# class: real-bug
# pattern: axial attention for images / volumes: the tensor is permuted so that one spatial axis and the channel axis come last, every other axis is folded into the batch, and a multi-head self-attention (heads folded into the batch with reshape + transpose, einsum 'bie,bje->bij', softmax over the last axis) runs along that one axis; one attention module per axis, the outputs summed
# why: buggy: the per-head dot products (width dim_heads = dim // heads by default) are multiplied by d ** -0.5, where d is the width of the input feature axis (the full model width), not the head width that scaled dot-product attention prescribes (1/sqrt(d_k)); with 8 heads the logits are sqrt(8) times too small; the author's next commit (d802fdc) rewrites the attention as a function whose scale is (d // h) ** -0.5 of the projected width, i.e. the head width
# source: https://github.com/lucidrains/axial-attention https://github.com/lucidrains/axial-attention/commit/cd648b6d799e9bec6242bba6f9ac3616c876d28a axial_attention/axial_attention.py
import torch
from torch import nn


def axial_permutations(n_spatial, channel_axis):
    total = n_spatial + 2
    channel_axis = channel_axis if channel_axis > 0 else channel_axis + total
    perms = []
    for axis in range(1, total):
        if axis == channel_axis:
            continue
        rest = [d for d in range(total) if d not in (axis, channel_axis)]
        perms.append([*rest, axis, channel_axis])
    return perms


class AlongAxis(nn.Module):
    """Runs `inner` along one axis: that axis and the channels last, the rest folded into the batch."""

    def __init__(self, perm, inner):
        super().__init__()
        self.perm = perm
        self.inverse = [perm.index(i) for i in range(len(perm))]
        self.inner = inner

    def forward(self, x):
        moved = x.permute(*self.perm)
        shape = moved.shape
        length, width = shape[-2], shape[-1]
        out = self.inner(moved.reshape(-1, length, width))
        return out.reshape(*shape).permute(*self.inverse)


class HeadsAttention(nn.Module):
    def __init__(self, dim, heads, dim_heads=None):
        super().__init__()
        self.heads = heads
        self.dim_heads = dim // heads if dim_heads is None else dim_heads
        hidden = self.dim_heads * heads
        self.qkv = nn.Linear(dim, hidden * 3, bias=False)
        self.proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)

        def fold(y):
            return y.reshape(b, t, h, -1).transpose(1, 2).reshape(b * h, t, -1)

        q, k, v = fold(q), fold(k), fold(v)
        logits = torch.einsum('bie,bje->bij', q, k) * (d ** -0.5)  # expect: ATT004
        weights = logits.softmax(dim=-1)
        mixed = torch.einsum('bij,bje->bie', weights, v)
        mixed = mixed.reshape(b, h, t, -1).transpose(1, 2).reshape(b, t, -1)
        return self.proj(mixed)


class AxialAttention(nn.Module):
    def __init__(self, dim, n_spatial=2, heads=8, dim_heads=None, channel_axis=-1):
        super().__init__()
        assert dim % heads == 0, 'dim must be divisible by heads'
        self.dim = dim
        self.total = n_spatial + 2
        self.channel_axis = channel_axis if channel_axis > 0 else channel_axis + self.total
        self.per_axis = nn.ModuleList(
            AlongAxis(p, HeadsAttention(dim, heads, dim_heads))
            for p in axial_permutations(n_spatial, channel_axis)
        )

    def forward(self, x):
        assert x.dim() == self.total, 'wrong number of dimensions'
        assert x.shape[self.channel_axis] == self.dim, 'wrong channel width'
        return sum(attn(x) for attn in self.per_axis)
