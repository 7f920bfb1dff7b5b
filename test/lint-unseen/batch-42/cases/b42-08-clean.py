# case: b42-08-clean
# modelled-on: lucidrains/tranception-pytorch https://github.com/lucidrains/tranception-pytorch/commit/bc5002498b88ab84035e2fabecf962e1f45d2dbe
# label: correct
# class: clean
# pattern: Tranception-style protein language model attention: a 1x1 Conv1d makes q, k, v in (batch, channels, length) layout; heads are split into four groups, and each group's q, k, v pass a left-padded (causal) depthwise Conv1d of its own kernel size (or none); queries are multiplied by dim_head ** -0.5 before the einsum; each group of heads adds its own learned-slope ALiBi bias (-|j - i| times a slope); a boolean triu(j - i + 1) mask is filled with -finfo(dtype).max before the softmax over j
# why: correct: pre-scaling q by 1/sqrt(dim_head) is the usual scale; the depthwise convolutions pad only on the left, so no position sees later tokens through them; triu(ones(i, j), j - i + 1) is True exactly for keys later than the query when the queries are the last i of j positions (here i == j), and filling it with the most negative finite value masks them; the ALiBi bias only adds to the logits before the softmax over the keys
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/lucidrains/tranception-pytorch https://github.com/lucidrains/tranception-pytorch/commit/bc5002498b88ab84035e2fabecf962e1f45d2dbe tranception_pytorch/tranception_pytorch.py
import math

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


def alibi_slopes(n):
    def pow2(m):
        first = 2 ** (-(2 ** -(math.log2(m) - 3)))
        return [first ** (k + 1) for k in range(m)]

    if math.log2(n).is_integer():
        return pow2(n)
    base = 2 ** math.floor(math.log2(n))
    return pow2(base) + pow2(2 * base)[0::2][: n - base]


class TrainableAlibi(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.slopes = nn.Parameter(torch.tensor(alibi_slopes(heads))[:, None, None])

    def forward(self, logits):
        i, j = logits.shape[-2:]
        dist = (torch.arange(j, device=logits.device)[None, :] - torch.arange(i, device=logits.device)[:, None]).abs()
        return -dist[None] * self.slopes


class LeftPaddedDepthwise(nn.Module):
    def __init__(self, channels, kernel):
        super().__init__()
        assert kernel % 2 == 1
        self.pad = kernel - 1
        self.conv = nn.Conv1d(channels, channels, kernel, groups=channels)

    def forward(self, x):
        return self.conv(F.pad(x, (self.pad, 0)))


class GroupedConvAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, kernels=(0, 3, 5, 7)):
        super().__init__()
        assert heads % len(kernels) == 0
        self.heads, self.dim_head = heads, dim_head
        self.per_group = heads // len(kernels)
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Conv1d(dim, 3 * heads * dim_head, 1, bias=False)
        width = self.per_group * dim_head
        self.convs = nn.ModuleList(
            nn.ModuleList(nn.Identity() if ks == 0 else LeftPaddedDepthwise(width, ks) for ks in kernels)
            for _ in range(3)
        )
        self.alibis = nn.ModuleList(TrainableAlibi(self.per_group) for _ in kernels)
        self.out = nn.Linear(heads * dim_head, dim, bias=False)

    def _grouped(self, t, convs):
        # t: (b, heads * dim_head, n) -> (b, heads, n, dim_head), each head group convolved on its own
        parts = t.split(self.per_group * self.dim_head, dim=1)
        parts = [conv(p) for conv, p in zip(convs, parts)]
        return rearrange(torch.cat(parts, dim=1), "b (h d) n -> b h n d", h=self.heads)

    def forward(self, x):
        x = rearrange(self.norm(x), "b n d -> b d n")
        q, k, v = self.qkv(x).chunk(3, dim=1)
        q, k, v = (self._grouped(t, c) for t, c in zip((q, k, v), self.convs))

        q = q * self.scale
        sim = einsum("b h i d, b h j d -> b h i j", q, k)
        groups = sim.split(self.per_group, dim=1)
        sim = torch.cat([g + alibi(g) for g, alibi in zip(groups, self.alibis)], dim=1)

        i, j = sim.shape[-2:]
        future = torch.ones((i, j), dtype=torch.bool, device=x.device).triu(j - i + 1)
        sim = sim.masked_fill(future, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.out(rearrange(out, "b h n d -> b n (h d)"))
