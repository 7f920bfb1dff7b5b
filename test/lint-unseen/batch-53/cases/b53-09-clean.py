# case: b53-09-clean
# modelled-on: Akulen/MtGDraftEncoder https://github.com/Akulen/MtGDraftEncoder/commit/b85b81f4e64e4b8296486d42f252c4d724a5c2e6
# label: correct
# class: clean
# pattern: the draft encoder's alternating block in Equinox: the per-card hidden states of each of the 45 picks attend, through eqx.nn.MultiheadAttention with rotary embeddings applied in process_heads, to the running per-pick summaries, with jnp.tri(45) as the mask so that pick i only reads summaries of picks 0..i
# why: correct: Equinox's MultiheadAttention scales the logits by 1/sqrt(qk_size) itself and keeps the logits where the mask is truthy (finfo.min elsewhere), so jnp.tri(45), ones on and below the diagonal, lets query pick i read key picks j <= i, the order in which a draft is seen; the states are transposed to [15, 45, d] so that the vmapped call runs one 45 x 45 attention per card slot; RoPE is applied to the split query and key heads before the product
# looks-like: ATT002, ATT003
# source: https://github.com/Akulen/MtGDraftEncoder https://github.com/Akulen/MtGDraftEncoder/commit/b85b81f4e64e4b8296486d42f252c4d724a5c2e6 models/attention.py
from typing import Callable, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float, PRNGKeyArray

PICKS = 45


class HeadsLayer(eqx.Module):
    mha: eqx.nn.MultiheadAttention

    def __init__(self, rng: PRNGKeyArray, heads: int = 2, width: int = 64, p: float = 0.1):
        self.mha = eqx.nn.MultiheadAttention(
            num_heads=heads,
            query_size=width,
            use_query_bias=True,
            use_key_bias=True,
            use_value_bias=True,
            use_output_bias=True,
            dropout_p=p,
            key=rng,
        )

    def __call__(self, rng, x, *, memory=None, mask=None, process_heads: Optional[Callable] = None, inference: bool = False):
        memory = x if memory is None else memory
        return self.mha(query=x, key_=memory, value=memory, mask=mask, inference=inference, process_heads=process_heads, key=rng)


class CardsReadPicks(eqx.Module):
    norm: eqx.nn.LayerNorm
    attn: HeadsLayer
    rope: eqx.nn.RotaryPositionalEmbedding
    drop: eqx.nn.Dropout

    def __init__(self, rng: PRNGKeyArray, width: int = 64, heads: int = 2, p: float = 0.1):
        self.norm = eqx.nn.LayerNorm(width)
        self.attn = HeadsLayer(rng, heads=heads, width=width, p=p)
        self.rope = eqx.nn.RotaryPositionalEmbedding(embedding_size=width // heads)
        self.drop = eqx.nn.Dropout(p)

    def rotate(self, qh, kh, vh):
        # qh, kh: [positions, heads, per_head]; rotate every head along the positions
        qh = jax.vmap(self.rope, in_axes=1, out_axes=1)(qh)
        kh = jax.vmap(self.rope, in_axes=1, out_axes=1)(kh)
        return qh, kh, vh

    def __call__(
        self,
        rng: PRNGKeyArray,
        cards: Float[Array, "45 15 width"],
        summaries: Float[Array, "45 width"],
        inference: bool = False,
    ) -> Float[Array, "45 15 width"]:
        r_attn, r_drop = jax.random.split(rng)
        flat = cards.reshape(-1, cards.shape[-1])
        normed = jax.vmap(self.norm)(flat).reshape(cards.shape).transpose(1, 0, 2)  # [15, 45, width]
        seen_so_far = jnp.tri(PICKS)
        step = eqx.Partial(self.attn, memory=summaries, mask=seen_so_far, process_heads=self.rotate, inference=inference)
        out = jax.vmap(step, in_axes=(None, 0))(r_attn, normed).transpose(1, 0, 2)
        return cards + self.drop(out, inference=inference, key=r_drop)
