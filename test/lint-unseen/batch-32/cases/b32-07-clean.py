# case: b32-07-clean
# modelled-on: SalamanderXing/graph-transformer-jax https://github.com/SalamanderXing/graph-transformer-jax/commit/f5754e6d17c70517fc594811d7428a9f6298364d
# label: correct
# class: clean
# pattern: a Flax (linen) graph transformer with edge features: Attention projects nodes to q and to k, v (one Dense split in two) and edges to a shared edge term, folds heads into the batch with einops.rearrange, adds the edge term to keys and values per (i, j) pair, forms sim = jnp.einsum('b i d, b i j d -> b i j', q, k) * dim_head ** -0.5, builds a pairwise node mask from the boolean node mask (True = real node) as mask_i & mask_j repeated over heads, writes -finfo.max where ~mask with np.where (jax.numpy imported as np) and takes nn.softmax(sim, axis=-1)
# why: correct: the node mask is True on real nodes, so ~mask marks the pairs that involve padding, which get the most negative finite value (the PyTorch original's masked_fill_(~mask, ...) in functional form); the einsum contracts the head features of q with each pair's key, so no explicit transpose is needed; the scale is one head's width; the softmax is over j, the neighbours (a padded query row is uniform but its output is never read)
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/SalamanderXing/graph-transformer-jax https://github.com/SalamanderXing/graph-transformer-jax/commit/f5754e6d17c70517fc594811d7428a9f6298364d graph_transformer.py
from typing import Callable

from einops import rearrange, repeat
from flax import linen as nn
from jax import numpy as np
from jaxtyping import Array, Bool, Float


class PreNorm(nn.Module):
    fn: Callable

    @nn.compact
    def __call__(self, x: Array, *args, **kwargs) -> Array:
        return self.fn(nn.LayerNorm()(x), *args, **kwargs)


class GatedResidual(nn.Module):
    @nn.compact
    def __call__(self, x: Array, res: Array) -> Array:
        gate = nn.sigmoid(nn.Dense(1, use_bias=False)(np.concatenate((x, res, x - res), axis=-1)))
        return x * gate + res * (1 - gate)


class Attention(nn.Module):
    dim_head: int = 64
    heads: int = 8

    @nn.compact
    def __call__(
        self,
        nodes: Float[Array, "b n ne"],
        edges: Float[Array, "b n n ee"],
        mask: Bool[Array, "b k"],
    ) -> Array:
        h = self.heads
        inner_dim = self.dim_head * self.heads
        scale = self.dim_head**-0.5

        q = nn.Dense(inner_dim)(nodes)
        k, v = np.split(nn.Dense(inner_dim * 2)(nodes), 2, axis=-1)
        e_kv = nn.Dense(inner_dim)(edges)

        q, k, v, e_kv = map(lambda t: rearrange(t, "b ... (h d) -> (b h) ... d", h=h), (q, k, v, e_kv))
        k, v = map(lambda t: rearrange(t, "b j d -> b () j d"), (k, v))
        k = k + e_kv
        v = v + e_kv

        sim = np.einsum("b i d, b i j d -> b i j", q, k) * scale

        mask = rearrange(mask, "b i -> b i ()") & rearrange(mask, "b j -> b () j")
        mask = repeat(mask, "b i j -> (b h) i j", h=h)
        max_neg_value = -np.finfo(sim.dtype).max
        sim = np.where(~mask, max_neg_value, sim)

        attn = nn.softmax(sim, axis=-1)
        out = np.einsum("b i j, b i j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=h)
        return nn.Dense(nodes.shape[-1])(out)


class NodeEdgeLayerPair(nn.Module):
    dim_head: int
    heads: int

    @nn.compact
    def __call__(self, nodes, edges, mask):
        attn = PreNorm(Attention(dim_head=self.dim_head, heads=self.heads))
        nodes = GatedResidual()(attn(nodes, edges, mask), nodes)
        return nodes, edges, mask
