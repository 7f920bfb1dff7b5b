# case: b43-11-clean
# modelled-on: lucidrains/lightweight-gan https://github.com/lucidrains/lightweight-gan/commit/efbec4570b7cb715e05058eccc518dc1a5753523
# label: correct
# class: clean
# pattern: the attention blocks of a GAN generator / discriminator over 2-D feature maps: (1) efficient linear attention, queries softmaxed over their feature axis and keys softmaxed over the positions (dim=-2), queries multiplied by dim_head ** -0.5, a (d, e) context from einsum 'b n d, b n e -> b d e' and the output from 'b n d, b d e -> b n e'; (2) a local "conv-like" attention in the same module, whose keys and values come from F.unfold over a k x k window and are rearranged to (b, positions, window, d), each position scored against its own window with einsum 'b i d, b i j d -> b i j', the row max subtracted (detached) before a softmax over the window; (3) a global-context block that scores every pixel with a 1x1 conv and takes the softmax over the flattened spatial axis
# why: correct: in efficient attention (Shen et al.) the query softmax over features and the key softmax over positions are the normalisations the method prescribes, not a misplaced axis; the unfolded keys are already one key vector per window slot, so no transpose is needed and the softmax over j normalises over the window; subtracting the row max changes nothing after the softmax; the global context is a distribution over pixels, hence the flattened last axis; queries are scaled by the per-head width
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/lucidrains/lightweight-gan https://github.com/lucidrains/lightweight-gan/commit/efbec4570b7cb715e05058eccc518dc1a5753523 lightweight_gan/lightweight_gan.py
import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn


class DepthwiseSeparable(nn.Module):
    def __init__(self, dim_in, dim_out, kernel_size, padding=0, bias=True):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(dim_in, dim_in, kernel_size, padding=padding, groups=dim_in, bias=bias),
            nn.Conv2d(dim_in, dim_out, 1, bias=bias),
        )

    def forward(self, x):
        return self.net(x)


class MixedAttention2d(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, window=3):
        super().__init__()
        self.heads, self.dim_head, self.window = heads, dim_head, window
        self.scale = dim_head ** -0.5
        inner = dim_head * heads
        self.lin_q = nn.Conv2d(dim, inner, 1, bias=False)
        self.lin_kv = DepthwiseSeparable(dim, inner * 2, 3, padding=1, bias=False)
        self.loc_q = nn.Conv2d(dim, inner, 1, bias=False)
        self.loc_kv = nn.Conv2d(dim, inner * 2, 1, bias=False)
        self.out = nn.Conv2d(inner * 2, dim, 1)

    def forward(self, fmap):
        h, (x, y) = self.heads, fmap.shape[-2:]

        q, k, v = (self.lin_q(fmap), *self.lin_kv(fmap).chunk(2, dim=1))
        q, k, v = (rearrange(t, "b (h c) x y -> (b h) (x y) c", h=h) for t in (q, k, v))
        q = q.softmax(dim=-1) * self.scale
        k = k.softmax(dim=-2)
        ctx = einsum("b n d, b n e -> b d e", k, v)
        global_out = einsum("b n d, b d e -> b n e", q, ctx)
        global_out = rearrange(global_out, "(b h) (x y) d -> b (h d) x y", h=h, x=x, y=y)

        q, k, v = (self.loc_q(fmap), *self.loc_kv(fmap).chunk(2, dim=1))
        q, k, v = (rearrange(t, "b (h c) x y -> (b h) c x y", h=h) for t in (q, k, v))
        pad = self.window // 2
        k = rearrange(F.unfold(k, kernel_size=self.window, padding=pad), "b (d j) n -> b n j d", d=self.dim_head)
        v = rearrange(F.unfold(v, kernel_size=self.window, padding=pad), "b (d j) n -> b n j d", d=self.dim_head)
        q = rearrange(q, "b c ... -> b (...) c") * self.scale
        sim = einsum("b i d, b i j d -> b i j", q, k)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        local_out = einsum("b i j, b i j d -> b i d", sim.softmax(dim=-1), v)
        local_out = rearrange(local_out, "(b h) (x y) d -> b (h d) x y", h=h, x=x, y=y)

        return self.out(torch.cat((F.gelu(global_out), local_out), dim=1))


class PixelContext(nn.Module):
    def __init__(self, chan_in, chan_out):
        super().__init__()
        hidden = max(3, chan_out // 2)
        self.score = nn.Conv2d(chan_in, 1, 1)
        self.excite = nn.Sequential(
            nn.Conv2d(chan_in, hidden, 1), nn.LeakyReLU(0.1), nn.Conv2d(hidden, chan_out, 1), nn.Sigmoid()
        )

    def forward(self, x):
        weights = self.score(x).flatten(2).softmax(dim=-1)          # (b, 1, h * w)
        pooled = einsum("b i n, b c n -> b c i", weights, x.flatten(2))
        return self.excite(pooled.unsqueeze(-1))
