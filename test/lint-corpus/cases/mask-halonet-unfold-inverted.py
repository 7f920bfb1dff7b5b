# case: mask-halonet-unfold-inverted
# modelled-on: lucidrains/halonet-pytorch https://github.com/lucidrains/halonet-pytorch/blob/main/halonet_pytorch/halonet_pytorch.py
# label: correct
# pattern: the fixed HaloNet: the unfold-of-ones mask is inverted with ~ before masked_fill_; the 1/sqrt(d) scale is folded into q in place before the einsum
# why: after ~ the mask is True in the zero padding, so only padding is filled; q *= scale applies the scale once
# looks-like: ATT002, ATT003
import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


class HaloAttention(nn.Module):
    def __init__(self, *, dim: int, block_size: int, halo_size: int, dim_head: int = 64, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.block_size = block_size
        self.halo_size = halo_size
        inner_dim = dim_head * heads
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x):
        b, c, h, w = x.shape
        block, halo, heads, device = self.block_size, self.halo_size, self.heads, x.device
        q_inp = rearrange(x, "b c (h p1) (w p2) -> (b h w) (p1 p2) c", p1=block, p2=block)
        kv_inp = F.unfold(x, kernel_size=block + halo * 2, stride=block, padding=halo)
        kv_inp = rearrange(kv_inp, "b (c j) i -> (b i) j c", c=c)
        q = self.to_q(q_inp)
        k, v = self.to_kv(kv_inp).chunk(2, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> (b h) n d", h=heads), (q, k, v))

        q *= self.scale
        sim = einsum("b i d, b j d -> b i j", q, k)

        mask = torch.ones(1, 1, h, w, device=device)
        mask = F.unfold(mask, kernel_size=block + (halo * 2), stride=block, padding=halo)
        mask = repeat(mask, "() j i -> (b i h) () j", b=b, h=heads)
        mask = ~mask.bool()  # True in the zero padding

        max_neg_value = -torch.finfo(sim.dtype).max
        sim.masked_fill_(mask, max_neg_value)
        attn = sim.softmax(dim=-1)
        out = einsum("b i j, b j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=heads)
        return rearrange(
            self.to_out(out), "(b h w) (p1 p2) c -> b c (h p1) (w p2)", b=b, h=(h // block), w=(w // block), p1=block, p2=block
        )
