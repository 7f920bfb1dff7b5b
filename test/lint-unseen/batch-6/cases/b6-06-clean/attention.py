# case: b6-06-clean
# modelled-on: trymirai/lalamo https://github.com/trymirai/lalamo/commit/cef960b0872919e9eab8ff4987f3b89d363b9260
# label: correct
# class: clean
# pattern: a JAX (Equinox-style) LLM inference stack: token-first attention (tokens, heads, channels) with grouped KV heads, a boolean mask (True = attend) built by a dynamic KV cache in another module from absolute query and key positions (bottom-right causal, optional sliding window, padding), passed to jax.nn.dot_product_attention, and a manual fallback for logit soft-capping that scales by head_dim ** -0.5, caps, fills with where(mask, logits, -inf) and softmaxes over the source tokens
# why: correct: jax.nn.dot_product_attention keeps the positions where the mask is True and scales by 1/sqrt(head_dim) itself when scale is None; the fallback does the same by hand in float32 and its softmax runs over the last axis, the source tokens, of a (heads, dst, src) tensor; the cache's mask compares absolute positions, so a chunk of queries after cached keys is aligned bottom-right
# looks-like: ATT001, ATT002, ATT003, ATT007, ATT008
# source: https://github.com/trymirai/lalamo https://github.com/trymirai/lalamo/commit/cef960b0872919e9eab8ff4987f3b89d363b9260 lalamo/modules/token_mixers/attention.py
import jax
import jax.numpy as jnp
from einops import einsum, rearrange

from kv_cache import DynamicKVCache


def _repeat_kv(x, group_size):
    # (tokens, groups, channels) -> (tokens, heads, channels)
    return x if group_size == 1 else jnp.repeat(x, group_size, axis=1)


def soft_cap(logits, cap):
    return cap * jnp.tanh(logits / cap)


def attention_kernel(queries, keys, values, *, mask, scale=None, logit_soft_cap=None):
    """queries (dst, heads, ch); keys, values (src, groups, ch); mask (dst, src) bool, True = attend"""
    original_dtype = queries.dtype
    queries, keys, values = (t.astype(jnp.float32) for t in (queries, keys, values))
    if logit_soft_cap is None:
        return jax.nn.dot_product_attention(queries, keys, values, mask=mask, scale=scale).astype(original_dtype)

    _, num_heads, head_dim = queries.shape
    _, num_groups, _ = keys.shape
    keys = _repeat_kv(keys, num_heads // num_groups)
    values = _repeat_kv(values, num_heads // num_groups)
    q = rearrange(queries, "dst heads ch -> heads dst ch")
    k = rearrange(keys, "src heads ch -> heads src ch")
    logits = einsum(q, k, "heads dst ch, heads src ch -> heads dst src")
    scale_val = head_dim**-0.5 if scale is None else float(scale)
    logits = soft_cap(logits * scale_val, logit_soft_cap)
    if mask is not None:
        logits = jnp.where(mask, logits, jnp.array(float("-inf"), dtype=logits.dtype))
    weights = jax.nn.softmax(logits, axis=-1)  # over src
    out = einsum(weights, values, "heads dst src, src heads ch -> dst heads ch")
    return out.astype(original_dtype)


def attend_step(params, x, cache, *, num_heads, num_groups, head_dim, is_causal=True, window=None, soft_cap_value=None):
    """x: (new_tokens, d_model). Appends the new keys and values to the cache and attends over all of them."""
    n_new = x.shape[0]
    q = (x @ params["wq"]).reshape(n_new, num_heads, head_dim)
    k = (x @ params["wk"]).reshape(n_new, num_groups, head_dim)
    v = (x @ params["wv"]).reshape(n_new, num_groups, head_dim)
    cache = cache.extend(k, v) if cache is not None else DynamicKVCache.init(k, v)
    mask = cache.attention_mask(n_new, is_causal, sliding_window_size=window)
    out = attention_kernel(q, cache.keys, cache.values, mask=mask, logit_soft_cap=soft_cap_value)
    return out.reshape(n_new, num_heads * head_dim) @ params["wo"], cache
