# case: b47-04-clean
# modelled-on: sgl-project/sglang-jax https://github.com/sgl-project/sglang-jax/commit/cddbf6f1cc33cbdd453bd8f36ff7051cf46ca176
# label: correct
# class: clean
# pattern: JAX reference attention of a serving engine over a ragged batch: queries of all requests packed on one axis, keys gathered from a paged KV cache (prefix and new tokens of every request packed likewise); logits (Q, H, K) scaled by 1/sqrt(head_dim) unless the layer gives its own scale, cache slots marked invalid filled with finfo.min, then a mask per mode (extend: same request, and key position <= the query's absolute position = cached prefix length + its offset in the new chunk, optionally a sliding window; decode: the keys of the query's own request), and a softmax written out over the last (key) axis
# why: correct: every mask is a keep mask (True = may attend) given to jnp.where(mask, logits, finfo.min), so the polarity matches; the causal test compares the key's position inside its request with the query's absolute position (prefix length + relative position), which is the bottom-right alignment a chunk after a cached prefix needs; decode queries see their whole request; finfo.min keeps fully-masked padding rows finite; the hand-written softmax subtracts the row max and divides by the row sum over axis -1, the key axis of the (Q, H, K) layout
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/sgl-project/sglang-jax https://github.com/sgl-project/sglang-jax/commit/cddbf6f1cc33cbdd453bd8f36ff7051cf46ca176 python/sgl_jax/srt/layers/attention/native_backend.py
import jax
import jax.numpy as jnp

EXTEND, DECODE = "extend", "decode"


def _request_ids(lengths, total):
    starts = jnp.cumsum(lengths, dtype=jnp.int32) - lengths
    marks = jnp.zeros(total, dtype=jnp.int32).at[starts].set(1)
    return starts, jnp.cumsum(marks, dtype=jnp.int32) - 1


def extend_keep_mask(n_q, n_k, kv_lens, prefix_lens, new_lens, causal=True, window=None):
    q_starts, q_req = _request_ids(new_lens, n_q)
    k_starts, k_req = _request_ids(kv_lens, n_k)
    keep = q_req[:, None] == k_req[None, :]
    if causal or window is not None:
        q_abs = prefix_lens[q_req] + (jnp.arange(n_q, dtype=jnp.int32) - q_starts[q_req])
        k_rel = jnp.arange(n_k, dtype=jnp.int32) - k_starts[k_req]
        if causal:
            keep = keep & (q_abs[:, None] >= k_rel[None, :])
        if window is not None:
            keep = keep & (q_abs[:, None] - k_rel[None, :] < window)
    keep = keep & (jnp.arange(n_q) < new_lens.sum())[:, None] & (jnp.arange(n_k) < kv_lens.sum())[None, :]
    return keep


def decode_keep_mask(n_q, n_k, kv_lens, window=None):
    ends = jnp.cumsum(kv_lens)
    starts = ends - kv_lens
    pos = jnp.arange(n_k)
    rows = (pos[None, :] >= starts[:, None]) & (pos[None, :] < ends[:, None])
    if window is not None:
        rows = rows & (pos[None, :] >= (ends[:, None] - window))
    return jnp.zeros((n_q, n_k), dtype=jnp.bool_).at[: kv_lens.shape[0], :].set(rows)


def ragged_attention(q, k_pool, v_pool, slots, kv_lens, prefix_lens, new_lens,
                     n_heads, n_kv_heads, scale=None, causal=True, mode=DECODE, window=None):
    """q: (tokens, hidden); k_pool/v_pool: (pool_size, n_kv_heads, head_dim); slots: cache rows, 0 = empty."""
    pool = k_pool.shape[0]
    safe = jnp.where(slots > 0, slots, pool)
    k = k_pool.at[safe].get(mode="fill", fill_value=0)
    v = v_pool.at[safe].get(mode="fill", fill_value=0)
    n_tok = q.shape[0]
    head_dim = q.shape[-1] // n_heads
    qh = q.reshape(n_tok, n_heads, head_dim)
    if n_kv_heads != n_heads:
        k = jnp.repeat(k, n_heads // n_kv_heads, axis=1)
        v = jnp.repeat(v, n_heads // n_kv_heads, axis=1)

    if scale is None:
        scale = 1.0 / jnp.sqrt(head_dim)
    logits = jnp.einsum("qhd,khd->qhk", qh, k) * scale
    floor = jnp.asarray(jnp.finfo(logits.dtype).min, logits.dtype)
    logits = jnp.where((slots > 0)[None, None, :], logits, floor)

    n_k = k.shape[0]
    if mode == EXTEND:
        keep = extend_keep_mask(n_tok, n_k, kv_lens, prefix_lens, new_lens, causal, window)
    else:
        keep = decode_keep_mask(n_tok, n_k, kv_lens, window)
    logits = jnp.where(keep[:, None, :], logits, floor)

    logits = logits - jnp.max(logits, axis=-1, keepdims=True)
    e = jnp.exp(logits)
    probs = e / jnp.sum(e, axis=-1, keepdims=True)
    out = jnp.einsum("qhk,khd->qhd", probs.astype(v.dtype), v)
    return out.reshape(n_tok, n_heads * v.shape[-1])
