# case: softmax-flax-default-axis-bias
# modelled-on: google/flax https://github.com/google/flax/blob/main/flax/linen/attention.py
# label: correct
# pattern: Flax dot_product_attention_weights: einsum '...qhd,...khd->...hqk', query pre-divided by sqrt(depth), boolean mask (True = attend) turned into a bias with jnp.finfo(dtype).min, jax.nn.softmax with its default axis
# why: jax.nn.softmax defaults to axis=-1 (the keys k); the mask keeps True positions; finfo(dtype).min fits every float dtype
# looks-like: ATT001, ATT002, ATT003, ATT007
import jax
import jax.numpy as jnp
from flax import linen as nn


def dot_product_attention_weights(query, key, bias=None, mask=None, dtype=None):
    """query: [batch..., q_length, num_heads, qk_depth]; key: [batch..., kv_length, num_heads, qk_depth]."""
    dtype = dtype or query.dtype
    depth = query.shape[-1]
    query = query / jnp.sqrt(depth).astype(dtype)
    # [batch..., num_heads, q_length, kv_length]
    attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
    if bias is not None:
        attn_weights = attn_weights + bias
    if mask is not None:
        big_neg = jnp.finfo(dtype).min
        attn_weights = jnp.where(mask, attn_weights, big_neg)
    attn_weights = jax.nn.softmax(attn_weights).astype(dtype)
    return attn_weights


def dot_product_attention(query, key, value, bias=None, mask=None, dtype=None):
    weights = dot_product_attention_weights(query, key, bias, mask, dtype)
    return jnp.einsum("...hqk,...khd->...qhd", weights, value)


def make_padding_mask(token_ids, pad_id=0):
    """[batch, 1, q_len, kv_len] boolean, True where both tokens are real."""
    valid = token_ids != pad_id
    return nn.make_attention_mask(valid, valid)
