# case: scale-vitpytorch-dim-not-dim-head
# modelled-on: lucidrains/vit-pytorch https://github.com/lucidrains/vit-pytorch/issues/65
# label: buggy
# pattern: the scale is computed once in __init__ from the model width (dim) and used in forward on per-head scores from einsum 'b h i d, b h j d -> b h i j'
# why: each head's keys have dim_head components, so the scores should be divided by sqrt(dim_head), not sqrt(dim); the author confirmed and fixed it
import torch
from einops import rearrange
from torch import einsum, nn


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 8, dim_head: int = 64, dropout: float = 0.0):
        super().__init__()
        inner_dim = dim_head * heads
        project_out = not (heads == 1 and dim_head == dim)
        self.heads = heads
        self.scale = dim ** -0.5
        self.attend = nn.Softmax(dim=-1)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, dim), nn.Dropout(dropout)) if project_out else nn.Identity()

    def forward(self, x):
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale  # expect: ATT004
        attn = self.attend(dots)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)
