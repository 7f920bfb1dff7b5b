# case: b61-05-clean
# modelled-on: lucidrains/transganformer https://github.com/lucidrains/transganformer/commit/b085b1a5bf18d28c7d47d1f0f8337f4c33d851c1
# label: correct
# class: clean
# pattern: feature-map attention of a GAN generator: queries from a 1x1 convolution, keys and values from a strided 3x3 (or 7x7) convolution that downsamples the map, heads split with `rearrange('b (h d) x y -> b h (x y) d')` so keys are laid out (b, h, j, d) and contracted by `einsum('b h i d, b h j d -> b h i j')`; optional latent tokens are concatenated to queries, keys and values and split back out afterwards; after the softmax the heads are mixed by a learned (heads x heads) matrix ("talking heads")
# why: correct: the einsum contracts the per-head feature axis d of queries and keys directly, so no transpose is needed; the scale is dim_head ** -0.5, the per-head width; the softmax runs over j, the (downsampled) key positions plus latents; the post-softmax einsum over h mixes whole attention maps across heads by design (talking-heads attention), it neither masks nor renormalises anything; there is no mask because every position is a real pixel or latent
# looks-like: ATT001, ATT004, ATT005, ATT006
# source: https://github.com/lucidrains/transganformer https://github.com/lucidrains/transganformer/commit/b085b1a5bf18d28c7d47d1f0f8337f4c33d851c1 transganformer/transganformer.py
import torch
from einops import rearrange
from torch import einsum, nn

KV_CONV = {1: (3, 1, 1), 2: (3, 2, 1), 4: (7, 4, 3)}


class FmapAttention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, dim_out=None, kv_down=1, latent_dim=None):
        super().__init__()
        if kv_down not in KV_CONV:
            raise ValueError(f"unsupported key/value downsampling {kv_down}")
        inner = heads * dim_head
        dim_out = dim_out or dim
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Conv2d(dim, inner, 1, bias=False)
        self.to_k = nn.Conv2d(dim, inner, *KV_CONV[kv_down], bias=False)
        self.to_v = nn.Conv2d(dim, inner, *KV_CONV[kv_down], bias=False)
        self.latent_dim = latent_dim
        if latent_dim is not None:
            self.latent_qkv = nn.Conv2d(latent_dim, 3 * inner, 1, bias=False)
            self.latent_out = nn.Sequential(nn.Conv2d(inner, 2 * latent_dim, 1), nn.GLU(dim=1))
        self.head_mix = nn.Parameter(torch.randn(heads, heads))
        self.to_out = nn.Sequential(nn.Conv2d(inner, 2 * dim_out, 1), nn.GLU(dim=1))

    def _split(self, t):
        return rearrange(t, "b (h d) x y -> b h (x y) d", h=self.heads)

    def forward(self, fmap, latents=None):
        q, k, v = self.to_q(fmap), self.to_k(fmap), self.to_v(fmap)
        out_h, out_w = q.shape[-2:]
        q, k, v = map(self._split, (q, k, v))

        n_lat = 0
        if self.latent_dim is not None:
            lq, lk, lv = map(self._split, self.latent_qkv(latents).chunk(3, dim=1))
            n_lat = lq.shape[-2]
            q, k, v = torch.cat((lq, q), dim=-2), torch.cat((lk, k), dim=-2), torch.cat((lv, v), dim=-2)

        sim = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        attn = einsum("b h i j, h g -> b g i j", attn, self.head_mix)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)

        lat_out = None
        if n_lat:
            lat, out = out[..., :n_lat, :], out[..., n_lat:, :]
            lat = rearrange(lat, "b h (x y) d -> b (h d) x y", x=latents.shape[-2], y=latents.shape[-1])
            lat_out = self.latent_out(lat)
        out = rearrange(out, "b h (x y) d -> b (h d) x y", x=out_h, y=out_w)
        out = self.to_out(out)
        return out if lat_out is None else (out, lat_out)
