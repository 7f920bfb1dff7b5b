import jax
import jax.numpy as jnp
import flax.linen as nn


def dot_product_attention(query, key, value, bias=None, dtype=jnp.float32):
    depth = query.shape[-1]
    query = query / jnp.sqrt(depth).astype(dtype)
    attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
    if bias is not None:
        attn_weights = attn_weights + bias
    attn_weights = jax.nn.softmax(attn_weights).astype(dtype)
    return jnp.einsum("...hqk,...khd->...qhd", attn_weights, value)


class SelfAttention(nn.Module):
    num_heads: int
    qkv_features: int

    @nn.compact
    def __call__(self, x, bias=None):
        head_dim = self.qkv_features // self.num_heads
        dense = lambda name: nn.DenseGeneral(features=(self.num_heads, head_dim), name=name)
        q, k, v = dense("query")(x), dense("key")(x), dense("value")(x)
        out = dot_product_attention(q, k, v, bias=bias)
        return nn.DenseGeneral(features=x.shape[-1], axis=(-2, -1), name="out")(out)
