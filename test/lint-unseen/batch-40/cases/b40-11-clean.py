# case: b40-11-clean
# modelled-on: lucidrains/segformer-pytorch https://github.com/lucidrains/segformer-pytorch/commit/b49efeae7b4fda4f9daf01e8efab91edcc9f42f0
# label: correct
# class: clean
# pattern: SegFormer's efficient self-attention on feature maps: queries from a 1x1 convolution at full resolution, keys and values from one strided convolution that shrinks the map by the reduction ratio, heads folded into the batch with einops ('b (h c) x y -> (b h) (x y) c'), similarity einsum 'b i d, b j d -> b i j' times (dim // heads) ** -0.5, softmax over the last axis (the reduced key positions), values mixed back and unfolded to a map; a channel layer norm and a pre-norm residual block around it
# why: correct: the scale is the per-head channel count, since each folded head carries dim // heads channels; the softmax runs over j, the keys, and there are fewer keys than queries by design (spatial reduction), which needs no mask
# looks-like: ATT001, ATT004
# source: https://github.com/lucidrains/segformer-pytorch https://github.com/lucidrains/segformer-pytorch/commit/b49efeae7b4fda4f9daf01e8efab91edcc9f42f0 segformer_pytorch/segformer_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class ChannelNorm(nn.Module):
    """Layer norm over the channel axis of a (b, c, h, w) map."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(1, dim, 1, 1))
        self.beta = nn.Parameter(torch.zeros(1, dim, 1, 1))

    def forward(self, x):
        var = torch.var(x, dim=1, unbiased=False, keepdim=True)
        return (x - x.mean(dim=1, keepdim=True)) / (var.sqrt() + self.eps) * self.gamma + self.beta


class ReducedKeyAttention(nn.Module):
    def __init__(self, *, dim, heads, reduction_ratio):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.q_conv = nn.Conv2d(dim, dim, 1, bias=False)
        self.kv_conv = nn.Conv2d(dim, dim * 2, reduction_ratio, stride=reduction_ratio, bias=False)
        self.out_conv = nn.Conv2d(dim, dim, 1, bias=False)

    def forward(self, fmap):
        height, width = fmap.shape[-2:]
        keys, values = self.kv_conv(fmap).chunk(2, dim=1)
        q, k, v = (rearrange(t, "b (h c) x y -> (b h) (x y) c", h=self.heads) for t in (self.q_conv(fmap), keys, values))
        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        mixed = einsum("b i j, b j d -> b i d", attn, v)
        mixed = rearrange(mixed, "(b h) (x y) c -> b (h c) x y", h=self.heads, x=height, y=width)
        return self.out_conv(mixed)


class EncoderStageBlock(nn.Module):
    def __init__(self, dim, heads, reduction_ratio):
        super().__init__()
        self.norm = ChannelNorm(dim)
        self.attn = ReducedKeyAttention(dim=dim, heads=heads, reduction_ratio=reduction_ratio)

    def forward(self, fmap):
        return fmap + self.attn(self.norm(fmap))
