# case: t13f-07-clean
# modelled-on: Cameron-Lyons/jax-gpt https://github.com/Cameron-Lyons/jax-gpt/commit/27cbbf9d1eae6cb3daa06fd54b0f2dff11e4d06b
# label: correct
# class: clean
# pattern: a Flax GPT attention with a preallocated KV cache and two paths: jax.nn.dot_product_attention on (B, T, heads, head_dim) tensors with is_causal=True when there is no cache and, with a cache, a boolean KEEP mask col <= row built from absolute positions (row = arange(T) + cache.length); and a manual path scaled by 1/math.sqrt(head_dim) (optionally also by 1/(layer_idx + 1)) that builds an IGNORE mask (col > row with a cache, triu(ones, k=1) without) and writes a fill constant imported from another module with jnp.where(mask == 1, FILL, att)
# why: correct: jax.nn.dot_product_attention's mask means "keep" and the cache-path mask keeps exactly the keys at positions <= each query's absolute position (bottom-right aligned; the cache is sliced to cache_len + T first), while is_causal=True is only used without a cache, where queries and keys have the same length; the manual path's mask marks positions to hide and the fill goes where it is 1; -1e9 is finite; the extra 1/(layer_idx + 1) factor is GPT-2's documented scale_attn_by_inverse_layer_idx option, on top of the per-head scale; what a naive linter could misread: ATT008 (is_causal on one branch of a cached attention, a causal mask with a KV cache), ATT002 (keep and ignore masks side by side, == 1), ATT004 (a second scale factor), ATT007 (an imported fill constant)
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/Cameron-Lyons/jax-gpt https://github.com/Cameron-Lyons/jax-gpt/commit/27cbbf9d1eae6cb3daa06fd54b0f2dff11e4d06b jax_gpt/model.py
import math
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import linen as nn

from constants import CAUSAL_MASK_FILL_VALUE


@dataclass
class KVCache:
    k: jax.Array
    v: jax.Array
    length: int = 0


class CausalSelfAttention(nn.Module):
    n_embd: int
    n_head: int
    use_flash_attention: bool = False
    scale_attn_by_inverse_layer_idx: bool = False
    layer_idx: int = 0

    @nn.compact
    def __call__(self, x, cache: KVCache | None = None):
        B, T, C = x.shape
        head_dim = C // self.n_head
        qkv = nn.Dense(3 * C, name="c_attn")(x).reshape(B, T, 3, self.n_head, head_dim).transpose(0, 2, 3, 1, 4)
        q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]  # (B, heads, T, head_dim)

        new_cache = None
        if cache is not None:
            n = cache.length
            k_all = cache.k.at[:, :, n : n + T, :].set(k)
            v_all = cache.v.at[:, :, n : n + T, :].set(v)
            new_cache = KVCache(k=k_all, v=v_all, length=n + T)
            k, v = k_all[:, :, : n + T, :], v_all[:, :, : n + T, :]
            T_kv = n + T
        else:
            T_kv = T

        if self.use_flash_attention:
            q_fa, k_fa, v_fa = (t.transpose(0, 2, 1, 3) for t in (q, k, v))  # (B, T, heads, head_dim)
            if cache is not None:
                row = jnp.arange(T)[None, :, None] + cache.length
                col = jnp.arange(T_kv)[None, None, :]
                y = jax.nn.dot_product_attention(q_fa, k_fa, v_fa, mask=col <= row)
            else:
                y = jax.nn.dot_product_attention(q_fa, k_fa, v_fa, is_causal=True)
            y = y.reshape(B, T, C)
        else:
            scale = 1.0 / math.sqrt(head_dim)
            if self.scale_attn_by_inverse_layer_idx:
                scale *= 1.0 / (self.layer_idx + 1)
            att = (q @ k.transpose(0, 1, 3, 2)) * scale
            if cache is not None:
                row = jnp.arange(T)[:, None] + cache.length
                col = jnp.arange(T_kv)[None, :]
                mask = (col > row).astype(att.dtype)
            else:
                mask = jnp.triu(jnp.ones((T, T_kv), dtype=att.dtype), k=1)
            att = jnp.where(mask == 1, CAUSAL_MASK_FILL_VALUE, att)
            att = jax.nn.softmax(att, axis=-1)
            y = (att @ v).transpose(0, 2, 1, 3).reshape(B, T, C)
        return nn.Dense(C, name="c_proj")(y), new_cache
