# case: b42-11-clean
# modelled-on: lucidrains/deformable-attention https://github.com/lucidrains/deformable-attention/commit/f9e7a982b8f83c136b6e18276aa6b4e1ddc3236b
# label: correct
# class: clean
# pattern: deformable attention over a feature map (DAT): queries come from every pixel; a grouped strided conv predicts offsets for a coarse grid of sampling points, keys and values are bilinearly sampled there with grid_sample, so there are far fewer keys than queries; queries are multiplied by dim_head ** -0.5, logits are einsum('b h i d, b h j d -> b h i j'), a continuous relative-position bias from a small MLP over log-spaced offsets is added, the row maximum is subtracted (detached) for stability, and the softmax runs over the sampled keys; no mask
# why: correct: the 1/sqrt(dim_head) scale is applied to the queries before the dot product; subtracting the detached row maximum leaves the softmax unchanged; every sampled key is a valid location of the same image (grid_sample pads outside with zeros), so nothing needs masking; the softmax is over j, the sampled keys, even though their count differs from the number of query pixels
# looks-like: ATT001, ATT002, ATT003, ATT005
# source: https://github.com/lucidrains/deformable-attention https://github.com/lucidrains/deformable-attention/commit/f9e7a982b8f83c136b6e18276aa6b4e1ddc3236b deformable_attention/deformable_attention_2d.py
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


def pixel_grid(t, stack_dim=0):
    h, w = t.shape[-2:]
    ys, xs = torch.meshgrid(torch.arange(h, device=t.device), torch.arange(w, device=t.device), indexing="ij")
    return torch.stack((xs, ys), dim=stack_dim).type_as(t)


def to_unit_square(grid, dim=1, out_dim=-1):
    h, w = grid.shape[-2:]
    gx, gy = grid.unbind(dim=dim)
    gx = 2.0 * gx / max(h - 1, 1) - 1.0
    gy = 2.0 * gy / max(w - 1, 1) - 1.0
    return torch.stack((gx, gy), dim=out_dim)


class ContinuousBias(nn.Module):
    """Relative-position bias from an MLP over signed log distances (SwinV2 style)."""

    def __init__(self, hidden, out_heads, groups):
        super().__init__()
        self.groups = groups
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out_heads))

    def forward(self, q_grid, kv_grid):
        q_pts = rearrange(q_grid, "h w c -> 1 (h w) 1 c")
        kv_pts = rearrange(kv_grid, "b h w c -> b 1 (h w) c")
        rel = q_pts - kv_pts
        rel = torch.sign(rel) * torch.log1p(rel.abs())
        return rearrange(self.net(rel), "(b g) i j o -> b (g o) i j", g=self.groups)


class DeformableAttention2d(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, downsample=4, kernel=6, groups=None, p_drop=0.0):
        super().__init__()
        groups = heads if groups is None else groups
        inner = dim_head * heads
        per_group = inner // groups
        self.heads, self.groups = heads, groups
        self.scale = dim_head ** -0.5
        self.offsets = nn.Sequential(
            nn.Conv2d(per_group, per_group, kernel, stride=downsample, padding=(kernel - downsample) // 2, groups=per_group),
            nn.GELU(),
            nn.Conv2d(per_group, 2, 1, bias=False),
            nn.Tanh(),
        )
        self.offset_range = float(downsample)
        self.bias = ContinuousBias(dim // 4, heads // groups, groups)
        self.q = nn.Conv2d(dim, inner, 1, groups=groups, bias=False)
        self.k = nn.Conv2d(dim, inner, 1, groups=groups, bias=False)
        self.v = nn.Conv2d(dim, inner, 1, groups=groups, bias=False)
        self.out = nn.Conv2d(inner, dim, 1)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x):
        b, _, h, w = x.shape
        fold = lambda t: rearrange(t, "b (g d) ... -> (b g) d ...", g=self.groups)
        q = self.q(x)
        shift = self.offsets(fold(q)) * self.offset_range
        where = to_unit_square(pixel_grid(shift) + shift)
        sampled = F.grid_sample(fold(x), where, mode="bilinear", padding_mode="zeros", align_corners=False)
        sampled = rearrange(sampled, "(b g) d ... -> b (g d) ...", b=b)

        q = q * self.scale
        q, k, v = (rearrange(t, "b (h d) ... -> b h (...) d", h=self.heads) for t in (q, self.k(sampled), self.v(sampled)))
        sim = einsum("b h i d, b h j d -> b h i j", q, k)
        sim = sim + self.bias(to_unit_square(pixel_grid(x), dim=0), where)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = self.drop(sim.softmax(dim=-1))
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.out(rearrange(out, "b h (x y) d -> b (h d) x y", x=h, y=w))
