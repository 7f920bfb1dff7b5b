# case: b56-02-clean
# modelled-on: Ayushhgit/jax-inference-engine https://github.com/Ayushhgit/jax-inference-engine/commit/576485bf32aec194bba8136125cceb36676b2823
# label: correct
# class: clean
# pattern: a pure-JAX single-token decoding step with a rolling (ring-buffer) key/value cache, a folder: the attention layer projects one hidden vector, rotates q and k at the absolute position, writes k and v into the layer's slot, then attends over the whole buffer with a boolean "live slot" mask from a helper module; the cache module keeps the write cursor and the fill count
# why: correct: the step has one query, so the scores are (heads, slots) from einsum("hd,thd->ht") and the softmax over axis -1 runs over the cached slots; the mask is True for slots that hold a token (where(mask, scores, -1e9) keeps them), and since the prompt is also fed one token at a time every written slot is in the past or is the current token, so no causal mask is needed with this cache and none is missing; the rotation is applied before caching, so slot order in the ring does not matter; the logits are divided by sqrt(head_dim); -1e9 in float32 removes the unwritten slots and at least the current slot is always live
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Ayushhgit/jax-inference-engine https://github.com/Ayushhgit/jax-inference-engine/commit/576485bf32aec194bba8136125cceb36676b2823 model/attention.py
from dataclasses import dataclass

import jax
import jax.numpy as jnp

from ring_cache import RingCache, write_layer
from window_mask import live_slots


@dataclass(frozen=True)
class Dims:
    width: int = 64
    heads: int = 4
    slots: int = 16

    @property
    def head_dim(self) -> int:
        return self.width // self.heads


def rotate(x: jnp.ndarray, pos: jnp.ndarray, inv_freq: jnp.ndarray) -> jnp.ndarray:
    angle = pos * inv_freq                      # (head_dim / 2,)
    cos, sin = jnp.cos(angle), jnp.sin(angle)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = jnp.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1)
    return out.reshape(x.shape)


def attend_one(params: dict, h: jnp.ndarray, layer: int, cache: RingCache, dims: Dims):
    """h: (width,) hidden vector of the current token; returns (width,) and the cache."""
    q = (h @ params["wq"]).reshape(dims.heads, dims.head_dim)
    k = (h @ params["wk"]).reshape(dims.heads, dims.head_dim)
    v = (h @ params["wv"]).reshape(dims.heads, dims.head_dim)

    q = rotate(q, cache.seen, params["inv_freq"])
    k = rotate(k, cache.seen, params["inv_freq"])

    cache = write_layer(cache, layer, k, v)
    keys = cache.keys[layer]      # (slots, heads, head_dim)
    values = cache.values[layer]

    logits = jnp.einsum("hd,thd->ht", q, keys) / jnp.sqrt(dims.head_dim)
    logits = jnp.where(live_slots(cache), logits, -1e9)
    weights = jax.nn.softmax(logits, axis=-1)

    mixed = jnp.einsum("ht,thd->hd", weights, values).reshape(dims.width)
    return mixed @ params["wo"], cache
