# case: b11-14-clean
# modelled-on: ns-1456/JAX-Transformer https://github.com/ns-1456/JAX-Transformer/commit/13a3d43acd4614ed353e0f0b7b525b19f4271312
# label: correct
# class: clean
# pattern: token-by-token generation for a JAX language model: each decode step feeds one new token (sq = 1), splits heads with einops.rearrange, applies RoPE at its position, appends k and v to a KV cache dataclass in another module (concatenate on the sequence axis) and attends over the whole cache with einops.einsum "b h sq d, b h sk d -> b h sq sk" times d_head ** -0.5, with no causal mask; an optional sparse mode keeps only the top-k scores per query with jnp.where(keep > 0, scores, finfo.min) before softmax over axis=-1
# why: correct: with a single query per step the cache holds only the past and the current token, so nothing needs a causal mask; the named einsum contracts the head dimension, so no key transpose is needed; keep is 1 on the top-k entries, so where(keep > 0, scores, min) leaves exactly those and a row always keeps k entries; the scale is the per-head width; what a naive linter could misread: ATT008 (attention over a KV cache with no causal mask), ATT002 (a 0/1 keep mask handed to where), ATT007 (finfo.min as the fill), ATT005 (keys never transposed)
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/ns-1456/JAX-Transformer https://github.com/ns-1456/JAX-Transformer/commit/13a3d43acd4614ed353e0f0b7b525b19f4271312 src/generate.py
import jax
import jax.numpy as jnp
from einops import einsum, rearrange

from kv_cache import KVCache
from rope import apply_rope


def attend_step(x, p, freqs, cache: KVCache, layer: int, num_heads: int, d_head: int, pos: int, sparse_top_k=None):
    # x: (batch, 1, d_model), the newest token only
    q = rearrange(x @ p["W_q"], "b s (h d) -> b h s d", h=num_heads)
    k = rearrange(x @ p["W_k"], "b s (h d) -> b h s d", h=num_heads)
    v = rearrange(x @ p["W_v"], "b s (h d) -> b h s d", h=num_heads)
    q = apply_rope(q, freqs[pos : pos + 1])
    k = apply_rope(k, freqs[pos : pos + 1])
    k, v = cache.update(layer, k, v)  # (b, h, cached, d)

    scale = d_head**-0.5
    scores = einsum(q, k, "b h sq d, b h sk d -> b h sq sk") * scale
    if sparse_top_k is not None and scores.shape[-1] > sparse_top_k:
        _, top_idx = jax.lax.top_k(scores, sparse_top_k)
        keep = jnp.zeros_like(scores).at[
            jnp.arange(scores.shape[0])[:, None, None, None],
            jnp.arange(scores.shape[1])[None, :, None, None],
            jnp.arange(scores.shape[2])[None, None, :, None],
            top_idx,
        ].set(1.0)
        scores = jnp.where(keep > 0, scores, jnp.finfo(scores.dtype).min)
    weights = jax.nn.softmax(scores, axis=-1)
    out = einsum(weights, v, "b h sq sk, b h sk d -> b h sq d")
    return rearrange(out, "b h s d -> b s (h d)") @ p["W_o"]
