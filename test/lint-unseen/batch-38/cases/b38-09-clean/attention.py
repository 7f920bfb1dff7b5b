# case: b38-09-clean
# modelled-on: ayaka14732/llama-2-jax https://github.com/ayaka14732/llama-2-jax/commit/6bb19056f2e10b052321c9c510df8d9474aca333
# label: correct
# class: clean
# pattern: Llama 2 in pure JAX (a folder: the attention function, the model settings and the generation loop): grouped-query attention as einsums over (batch, rep, kv-head, query, key); the scores are divided by sqrt(d_k) from the settings, masked with jnp.where(qk_mask, qk, -inf), softmaxed over the last (key) axis, and then zeroed again with jnp.where(qk_mask, qk, 0) after the softmax; the boolean qk_mask (True = may attend) is built by the generation code as tril(pad x pad) for the left-padded prompt and as the rolling pad mask (one query row) for each cached step; the fixed-size KV cache is rolled left by one and the new key/value written into its last slot
# why: correct: the mask is True where attention is allowed, so it is the `where` condition that keeps the score; -inf only ever fills rows that keep at least one key except the rows of left-padding queries, whose softmax is NaN, and the second where after the softmax exists to zero exactly those rows (their outputs are never used), not to apply a mask after the softmax; in the cached steps the single query row may see every non-padded cached key, so no causal triangle is needed
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/ayaka14732/llama-2-jax https://github.com/ayaka14732/llama-2-jax/commit/6bb19056f2e10b052321c9c510df8d9474aca333 lib/llama/attention.py
import math
from typing import Any, NamedTuple

import einops as op
import jax.nn as nn
import jax.numpy as jnp

from config import Settings


class KVCache(NamedTuple):
    k: Any
    v: Any


class AttnParams(NamedTuple):
    wq: Any  # (M, R, H, K)
    wk: Any  # (M, H, K)
    wv: Any  # (M, H, V)
    wo: Any  # (R, H, V, M)


def roll_cache(cache: KVCache) -> KVCache:
    return KVCache(jnp.roll(cache.k, -1, axis=-2), jnp.roll(cache.v, -1, axis=-2))


def attention(params: AttnParams, src, dst, qk_mask, *, rotate, cache: KVCache | None, settings: Settings):
    q = op.einsum(src, params.wq, 'B S M, M R H K -> B R H S K')
    k = op.einsum(dst, params.wk, 'B D M, M H K -> B H D K')
    v = op.einsum(dst, params.wv, 'B D M, M H V -> B H D V')
    q, k = rotate(q), rotate(k)

    if cache is not None:
        assert src.shape[1] == 1 and dst.shape[1] == 1
        k = cache.k.at[:, :, -1:].set(k)
        v = cache.v.at[:, :, -1:].set(v)

    scores = op.einsum(q, k, 'B R H S K, B H D K -> B R H S D') / math.sqrt(settings.d_k)
    scores = jnp.where(qk_mask, scores, -jnp.inf)
    probs = nn.softmax(scores)
    probs = jnp.where(qk_mask, probs, 0)

    mixed = op.einsum(probs, v, 'B R H S D, B H D V -> B R H S V')
    out = op.einsum(mixed, params.wo, 'B R H S V, R H V M -> B S M')
    return out, (KVCache(k, v) if settings.return_kv_cache else None)
