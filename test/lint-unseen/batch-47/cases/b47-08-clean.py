# case: b47-08-clean
# modelled-on: sgl-project/sglang-jax https://github.com/sgl-project/sglang-jax/commit/cddbf6f1cc33cbdd453bd8f36ff7051cf46ca176
# label: correct
# class: clean
# pattern: JAX correctness oracle for DeepSeek-style sparse attention: a lightning indexer scores every cached position of a request (sum over heads of w_h * relu(q_h . k)), keeps positions inside the request and at or before the query's absolute position (kv_len - n_new + offset), and takes the top-k per query, -1 for padding; the sparse absorbed-MLA step then gathers those k latent entries per query, forms logits (T, H, k) times sm_scale, fills unselected or out-of-range slots with -inf, softmaxes over the selected keys and zeroes the weights of invalid slots again before the product with the latent values
# why: correct: the -inf fill comes before the softmax; the second jnp.where after it only zeroes rows that had no valid slot at all (their softmax over all -inf is NaN) and slots already at weight 0, so it is a NaN guard, not a mask applied after the softmax; the keep masks are True = attend; sm_scale is 1/sqrt of the query-key width of MLA (nope + rope dims), given by the caller as a static argument; the indexer's relu scores only rank positions for top_k and never go through a softmax
# looks-like: ATT003, ATT006, ATT007, ATT008
# source: https://github.com/sgl-project/sglang-jax https://github.com/sgl-project/sglang-jax/commit/cddbf6f1cc33cbdd453bd8f36ff7051cf46ca176 python/sgl_jax/srt/kernels/dsa/ref.py
import functools

import jax
import jax.numpy as jnp

NEG_INF = float("-inf")


def indexer_topk(q, w, keys, kv_len, q_start, q_end, k):
    """q: (T, H, D) indexer queries of the packed batch, keys: (max_kv, D) of one request."""
    t = q.shape[0]
    n_kv = keys.shape[0]
    q_pos = jnp.arange(t)
    mine = (q_pos >= q_start) & (q_pos < q_end)
    absolute = kv_len - (q_end - q_start) + (q_pos - q_start)
    kv_pos = jnp.arange(n_kv)
    allowed = mine[:, None] & (kv_pos[None, :] < kv_len) & (kv_pos[None, :] <= absolute[:, None])
    s = jnp.einsum("thd,kd->thk", q, keys, preferred_element_type=jnp.float32)
    score = jnp.einsum("th,thk->tk", w.astype(jnp.float32), jax.nn.relu(s))
    score = jnp.where(allowed, score, NEG_INF)
    vals, idx = jax.lax.top_k(score, k)
    return jnp.where(vals > NEG_INF, idx, -1)


@functools.partial(jax.jit, static_argnames=("sm_scale", "pages_per_seq", "v_dim"))
def sparse_latent_attention(q, latent_pages, kv_lens, picks, page_table, cu_q, cu_kv, *, sm_scale, pages_per_seq, v_dim):
    """q: (T, H, D_qk) in latent space; latent_pages: (P, page, D_kv); picks: (T, k) positions, -1 = none."""
    t, h, _ = q.shape
    page = latent_pages.shape[1]
    d_kv = latent_pages.shape[2]
    flat_len = pages_per_seq * page
    init = jnp.zeros((t, h, v_dim), dtype=q.dtype)

    def one_request(r, acc):
        lo, hi = cu_q[r], cu_q[r + 1]
        pages = jax.lax.dynamic_slice_in_dim(page_table, cu_kv[r] // page, pages_per_seq)
        lat = latent_pages[pages].reshape(flat_len, d_kv)
        rows = (jnp.arange(t) >= lo) & (jnp.arange(t) < hi)
        ok = (picks >= 0) & (picks < kv_lens[r]) & rows[:, None]
        chosen = lat[jnp.where(picks >= 0, picks, 0)]  # (T, k, D_kv)

        logits = jnp.einsum("thd,tkd->thk", q.astype(jnp.float32), chosen.astype(jnp.float32)) * sm_scale
        logits = jnp.where(ok[:, None, :], logits, NEG_INF)
        probs = jax.nn.softmax(logits, axis=-1)
        probs = jnp.where(ok[:, None, :], probs, 0.0)

        vals = chosen[..., :v_dim].astype(jnp.float32)
        o = jnp.einsum("thk,tkd->thd", probs, vals).astype(q.dtype)
        return jnp.where(rows[:, None, None], o, acc)

    return jax.lax.fori_loop(0, kv_lens.shape[0], one_request, init)


def mla_softmax_scale(qk_nope_dim, qk_rope_dim):
    return (qk_nope_dim + qk_rope_dim) ** -0.5
