# case: scale-vitpytorch-dim-head
# modelled-on: lucidrains/vit-pytorch https://github.com/lucidrains/vit-pytorch/commit/85314cf0b6c4ab254fed4257d2ed069cf4f8f377
# label: correct
# pattern: the fix: self.scale = dim_head ** -0.5 in __init__, applied to einsum scores in forward; softmax module over dim=-1
# why: dim_head is the per-head key dimension
# looks-like: ATT004
import torch
from einops import rearrange
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int = 8, dim_head: int = 64, dropout: float = 0.0):
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.norm = nn.LayerNorm(dim)
        self.attend = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(dropout)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, dim), nn.Dropout(dropout))

    def forward(self, x):
        x = self.norm(x)
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = self.dropout(self.attend(dots))
        out = torch.matmul(attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))
