import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


class Attention(nn.Module):
    def __init__(self, dim, heads=8, num_mem=4):
        super().__init__()
        self.heads, self.scale, self.num_mem = heads, (dim // heads) ** -0.5, num_mem
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.mem_kv = nn.Parameter(torch.randn(2, heads, num_mem, dim // heads))

    def forward(self, x, mask=None):
        b = x.shape[0]
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in self.to_qkv(x).chunk(3, dim=-1))
        mk, mv = (t.unsqueeze(0).expand(b, -1, -1, -1) for t in self.mem_kv)
        k, v = torch.cat((mk, k), dim=-2), torch.cat((mv, v), dim=-2)
        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        if mask is not None:
            mask = F.pad(mask, (self.num_mem, 0), value=True)
            sim = sim.masked_fill(~rearrange(mask, "b j -> b 1 1 j"), -torch.finfo(sim.dtype).max)
        return einsum("b h i j, b h j d -> b h i d", sim.softmax(-1), v)


def run(tokens, emb):
    return Attention(64)(emb(tokens), mask=tokens != 0)
