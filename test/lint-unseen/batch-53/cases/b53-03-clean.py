# case: b53-03-clean
# modelled-on: Akulen/MtGDraftEncoder https://github.com/Akulen/MtGDraftEncoder/commit/b85b81f4e64e4b8296486d42f252c4d724a5c2e6
# label: correct
# class: clean
# pattern: an Equinox attention in which each of the 45 picks of a card draft attends over the 15 cards of its own pack (one query per pick, a separate key/value set per pick), written with einsum over named axes and a boolean "card still in the pack" mask
# why: correct: the scores are einsum("qhd,qkhd->hqk"), so the last axis k indexes the 15 cards of the query's own pack, and the softmax is taken over axis -1, the cards; they are divided by sqrt of the per-head query width; the mask is True for cards present (where(mask, logits, finfo.min)), tiled over heads, and every pick has at least the picked card present, so no row is fully masked; the value einsum contracts the same k axis
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/Akulen/MtGDraftEncoder https://github.com/Akulen/MtGDraftEncoder/commit/b85b81f4e64e4b8296486d42f252c4d724a5c2e6 models/attention.py
from typing import Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Bool, Float, PRNGKeyArray

N_PICKS = 45
PACK = 15


class PerPackAttention(eqx.Module):
    proj_q: eqx.nn.Linear
    proj_k: eqx.nn.Linear
    proj_v: eqx.nn.Linear
    proj_out: eqx.nn.Linear
    drop: eqx.nn.Dropout
    heads: int = eqx.field(static=True)

    def __init__(self, rng: PRNGKeyArray, width: int = 64, heads: int = 2, p: float = 0.1):
        r1, r2, r3, r4 = jax.random.split(rng, 4)
        per = width // heads
        self.heads = heads
        self.proj_q = eqx.nn.Linear(width, heads * per, key=r1)
        self.proj_k = eqx.nn.Linear(width, heads * per, key=r2)
        self.proj_v = eqx.nn.Linear(width, heads * per, key=r3)
        self.proj_out = eqx.nn.Linear(heads * per, width, key=r4)
        self.drop = eqx.nn.Dropout(p)

    def __call__(
        self,
        rng: PRNGKeyArray,
        picked: Float[Array, "45 width"],
        pack: Float[Array, "45 15 width"],
        present: Optional[Bool[Array, "45 15"]] = None,
        inference: bool = False,
    ) -> Float[Array, "45 width"]:
        width = picked.shape[-1]
        assert pack.shape == (N_PICKS, PACK, width)
        per_card = jax.vmap(jax.vmap(self.proj_k))
        q = jax.vmap(self.proj_q)(picked).reshape(N_PICKS, self.heads, -1)
        k = per_card(pack).reshape(N_PICKS, PACK, self.heads, -1)
        v = jax.vmap(jax.vmap(self.proj_v))(pack).reshape(N_PICKS, PACK, self.heads, -1)

        # one row of 15 scores per (head, pick): the cards of that pick's own pack
        scores = jnp.einsum("qhd,qkhd->hqk", q, k) / jnp.sqrt(q.shape[-1])
        if present is not None:
            keep = jnp.broadcast_to(present[None], scores.shape)
            scores = jnp.where(keep, scores, jnp.finfo(scores.dtype).min)
        probs = jax.nn.softmax(scores, axis=-1)
        probs = self.drop(probs, inference=inference, key=rng)

        out = jnp.einsum("hqk,qkhd->qhd", probs, v).reshape(N_PICKS, -1)
        return jax.vmap(self.proj_out)(out)


def pack_presence(pack_sizes: Array) -> Bool[Array, "45 15"]:
    """True for the cards still in the pack at each pick (pack_sizes counts down from 15)."""
    slots = jnp.arange(PACK)[None, :]
    return slots < pack_sizes[:, None]
