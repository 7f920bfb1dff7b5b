# case: b13-09-clean
# modelled-on: ultrons/jax-gpt https://github.com/ultrons/jax-gpt/commit/51bc1f79dd247bad65582f4abf9d077c43915195
# label: correct
# class: clean
# pattern: a pure-JAX grouped-query attention for a Qwen-style model with a static KV cache: RoPE frequencies sliced at cache_pos, new K/V written into (B, kv_heads, max_len, head_dim) buffers with dynamic_update_slice, KV heads repeated for the query groups, scores q @ swapaxes(k, -2, -1) * head_dim ** -0.5, and a causal mask built from absolute positions (q_positions = cache_pos + arange(T) >= arange(max_len)) or, without a cache, a (T, T) tril; jnp.where(mask, attn, finfo(dtype).min) before the softmax, and a sigmoid output gate
# why: correct: with a cache, query i of the chunk sits at absolute position cache_pos + i and may see exactly the keys at positions <= cache_pos + i, which includes the tokens written in this call and excludes the unwritten (zero) slots of the static buffer, so prefill, chunked prefill and single-token decode are all right (a bottom-right aligned causal mask); the keep mask is the where condition, so the fill goes where it is False; finfo(dtype).min is finite; the scale is the per-head width's inverse square root; what a naive linter could misread: ATT008 (a causal mask on a KV-cache path where queries and keys differ in length), ATT002 (a keep mask as where's condition), ATT007 (finfo min fill), ATT004 (head_dim ** -0.5), ATT005 (swapaxes(k, -2, -1))
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/ultrons/jax-gpt https://github.com/ultrons/jax-gpt/commit/51bc1f79dd247bad65582f4abf9d077c43915195 jax_gpt/models/qwen35/gqa.py
import jax
import jax.numpy as jnp

from rope import apply_rotary_emb


def rms_norm(x, w, eps: float = 1e-6):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps) * w


def gqa_attention(x, params, n_q_heads: int, n_kv_heads: int, head_dim: int, rope_freqs, rope_dim: int,
                  cache_k=None, cache_v=None, cache_pos=None):
    B, T, D = x.shape
    groups = n_q_heads // n_kv_heads
    q_gate = (x @ params["q_proj"]).reshape(B, T, n_q_heads, head_dim * 2)
    q, gate = q_gate[..., :head_dim], q_gate[..., head_dim:].reshape(B, T, -1)
    k = (x @ params["k_proj"]).reshape(B, T, n_kv_heads, head_dim)
    v = (x @ params["v_proj"]).reshape(B, T, n_kv_heads, head_dim)
    q, k = rms_norm(q, params["q_norm"]), rms_norm(k, params["k_norm"])
    q, k, v = (jnp.transpose(t, (0, 2, 1, 3)) for t in (q, k, v))

    if cache_pos is not None:
        freqs = jax.lax.dynamic_slice(rope_freqs, (cache_pos, 0, 0), (T, rope_dim // 2, 2))
    else:
        freqs = rope_freqs[:T]
    q, k = apply_rotary_emb(q, freqs, rope_dim), apply_rotary_emb(k, freqs, rope_dim)

    if cache_pos is not None:
        idx = (0, 0, cache_pos, 0)
        cache_k = jax.lax.dynamic_update_slice(cache_k, k.astype(cache_k.dtype), idx)
        cache_v = jax.lax.dynamic_update_slice(cache_v, v.astype(cache_v.dtype), idx)
        k_full, v_full = cache_k, cache_v
    else:
        k_full, v_full = k, v
    if groups > 1:
        k_full = jnp.repeat(k_full, groups, axis=1)
        v_full = jnp.repeat(v_full, groups, axis=1)

    scale = head_dim**-0.5
    attn = jnp.matmul(q, jnp.swapaxes(k_full, -2, -1)) * scale
    if cache_pos is not None:
        q_positions = cache_pos + jnp.arange(T)
        k_positions = jnp.arange(attn.shape[-1])
        mask = q_positions[:, None] >= k_positions[None, :]
    else:
        mask = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_))
    attn = jnp.where(mask, attn, jnp.finfo(attn.dtype).min)
    attn = jax.nn.softmax(attn, axis=-1)
    out = jnp.matmul(attn, v_full)
    out = jnp.transpose(out, (0, 2, 1, 3)).reshape(B, T, n_q_heads * head_dim)
    out = out * jax.nn.sigmoid(gate).astype(out.dtype)
    return (out @ params["o_proj"]).astype(x.dtype), cache_k, cache_v
