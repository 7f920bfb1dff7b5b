# case: b53-01-clean
# modelled-on: 6elphegor/BasiliskSudoku https://github.com/6elphegor/BasiliskSudoku/commit/7d852c9185dca24af42a59136c324066a5508a70
# label: correct
# class: clean
# pattern: a grouped-query attention block in plain JAX for a recurrent puzzle solver (a folder: the block, the module of boolean visibility masks with its where-based helper, and the solver step that builds a prefix-visible mask for the puzzle cells and hands it down)
# why: correct: the masks are boolean with True = may attend (a lower triangle, opened up over the prompt block so the givens see each other), and the helper keeps the scores where the mask is True and puts -inf elsewhere, so the polarity matches; the scores are divided by sqrt(head_dim) of the per-head split, the softmax runs over the last (key) axis of [heads, queries, keys], and the key/value heads are repeated to the query heads before the product; every row keeps at least its diagonal, so -inf never fills a whole row
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/6elphegor/BasiliskSudoku https://github.com/6elphegor/BasiliskSudoku/commit/7d852c9185dca24af42a59136c324066a5508a70 model/attention.py
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

from visibility import hide


@partial(jax.tree_util.register_dataclass, data_fields=["w_q", "w_k", "w_v", "w_out"], meta_fields=["width", "q_heads", "kv_heads"])
@dataclass
class GroupedBlock:
    width: int
    q_heads: int
    kv_heads: int
    w_q: jax.Array  # [width, width]
    w_k: jax.Array  # [width, width // q_heads * kv_heads]
    w_v: jax.Array
    w_out: jax.Array


def init_block(rng: jax.Array, width: int, q_heads: int, kv_heads: int) -> GroupedBlock:
    assert width % q_heads == 0 and q_heads % kv_heads == 0
    r_q, r_k, r_v, r_o = jax.random.split(rng, 4)
    kv_width = width // q_heads * kv_heads
    std = width ** -0.5
    return GroupedBlock(
        width=width,
        q_heads=q_heads,
        kv_heads=kv_heads,
        w_q=jax.random.normal(r_q, (width, width)) * std,
        w_k=jax.random.normal(r_k, (width, kv_width)) * std,
        w_v=jax.random.normal(r_v, (width, kv_width)) * std,
        w_out=jax.random.normal(r_o, (width, width)) * std,
    )


@partial(jax.jit, static_argnames=("times",))
def widen_groups(t: jax.Array, times: int) -> jax.Array:
    # [tokens, kv_heads, d] -> [tokens, kv_heads * times, d], each group's head repeated in place
    return jnp.repeat(t, times, axis=-2)


@jax.jit
def block_attend(blk: GroupedBlock, h: jax.Array, allowed: jax.Array) -> jax.Array:
    """h: [tokens, width]; allowed: [tokens, tokens], True where a query may read a key."""
    n = h.shape[0]
    d = blk.width // blk.q_heads
    times = blk.q_heads // blk.kv_heads

    queries = (h @ blk.w_q).reshape(n, blk.q_heads, d).transpose(1, 0, 2)
    keys = widen_groups((h @ blk.w_k).reshape(n, blk.kv_heads, d), times).transpose(1, 0, 2)
    vals = widen_groups((h @ blk.w_v).reshape(n, blk.kv_heads, d), times).transpose(1, 0, 2)

    logits = queries @ jnp.swapaxes(keys, -1, -2) / jnp.sqrt(d)
    logits = hide(allowed, logits)
    probs = jax.nn.softmax(logits, axis=-1)

    mixed = (probs @ vals).transpose(1, 0, 2).reshape(n, blk.width)
    return mixed @ blk.w_out
