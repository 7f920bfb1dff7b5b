# case: t28u-07-clean
# modelled-on: luis-gnz11/hk-multiheadattention2 https://github.com/luis-gnz11/hk-multiheadattention2/commit/e57df7c8c55fccdd082601bd199546eaa7830fcd
# label: correct
# class: clean
# pattern: a Haiku multi-head attention whose attention function is pluggable (softmax or FAVOR+): the module projects query/key/value with hk.Linear(num_heads * key_size) reshaped to [..., T, H, K] and calls self.attention_fn(q, k, v, mask=mask); the softmax function in its own module reads key_size off the last axis of the key heads, forms jnp.einsum("...thd,...Thd->...htT"), divides by jnp.sqrt(key_size), masks with jnp.where(mask, logits, -1e30) and calls jax.nn.softmax without an axis; the example builds the module with num_heads=2, key_size=18 on 36-wide inputs and passes the function from the other module
# why: correct: the logits are laid out [..., H, T', T] with the keys last, so jax.nn.softmax's default axis=-1 normalises over the keys; key_size is the last axis of [..., T, H, K] key heads, one head's width, so the scale is 1/sqrt(d_k); the einsum contracts the per-head features without a transpose; the mask keeps True positions and -1e30 is finite in float32
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/luis-gnz11/hk-multiheadattention2 https://github.com/luis-gnz11/hk-multiheadattention2/commit/e57df7c8c55fccdd082601bd199546eaa7830fcd hk_multiheadattention2/softmax_attention.py
from typing import Optional

import jax
import jax.numpy as jnp


def softmax_attention_fn(
    query_heads: jax.Array,
    key_heads: jax.Array,
    value_heads: jax.Array,
    mask: Optional[jax.Array] = None,
) -> jax.Array:
    # query_heads: [..., T', H, K]; key_heads: [..., T, H, K]; value_heads: [..., T, H, V]
    *_, key_size = key_heads.shape
    attn_logits = jnp.einsum("...thd,...Thd->...htT", query_heads, key_heads)
    attn_logits = attn_logits / jnp.sqrt(key_size).astype(key_heads.dtype)
    if mask is not None:
        if mask.ndim != attn_logits.ndim:
            raise ValueError(f"mask rank {mask.ndim} must match logits rank {attn_logits.ndim}")
        attn_logits = jnp.where(mask, attn_logits, -1e30)
    attn_weights = jax.nn.softmax(attn_logits)  # [..., H, T', T]
    return jnp.einsum("...htT,...Thd->...thd", attn_weights, value_heads)  # [..., T', H, V]
