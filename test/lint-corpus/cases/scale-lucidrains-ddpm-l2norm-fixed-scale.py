# case: scale-lucidrains-ddpm-l2norm-fixed-scale
# modelled-on: lucidrains/denoising-diffusion-pytorch https://github.com/lucidrains/denoising-diffusion-pytorch/issues/78
# label: correct
# pattern: q and k are L2-normalised and the similarity is multiplied by a fixed scale of 16 instead of dim_head ** -0.5; layout (b, h, d, n) from a 1x1 conv, so the einsum contracts d
# why: this is query-key normalisation (arXiv:2010.04245); the author confirms in #78 it is intended
# looks-like: ATT003, ATT004, ATT005
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


def l2norm(t):
    return F.normalize(t, dim=-1)


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 4, dim_head: int = 32, scale: int = 16):
        super().__init__()
        self.scale = scale
        self.heads = heads
        hidden_dim = dim_head * heads
        self.to_qkv = nn.Conv2d(dim, hidden_dim * 3, 1, bias=False)
        self.to_out = nn.Conv2d(hidden_dim, dim, 1)

    def forward(self, x):
        b, c, h, w = x.shape
        qkv = self.to_qkv(x).chunk(3, dim=1)
        q, k, v = map(lambda t: rearrange(t, "b (h c) x y -> b h c (x y)", h=self.heads), qkv)  # (b, h, d, n)
        q, k = map(l2norm, (q, k))
        sim = einsum("b h d i, b h d j -> b h i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h d j -> b h i d", attn, v)
        out = rearrange(out, "b h (x y) d -> b (h d) x y", x=h, y=w)
        return self.to_out(out)
