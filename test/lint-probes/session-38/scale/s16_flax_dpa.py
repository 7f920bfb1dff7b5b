import jax
import jax.numpy as jnp
import flax.linen as nn


class FlaxSelfAttention(nn.Module):
    num_heads: int
    qkv_features: int

    @nn.compact
    def __call__(self, x):
        head_dim = self.qkv_features // self.num_heads
        dense = lambda name: nn.DenseGeneral((self.num_heads, head_dim), name=name)
        q, k, v = dense("query")(x), dense("key")(x), dense("value")(x)  # (B, L, H, D)
        q = q / jnp.sqrt(head_dim).astype(q.dtype)
        logits = jnp.einsum("...qhd,...khd->...hqk", q, k)
        weights = jax.nn.softmax(logits, axis=-1)
        out = jnp.einsum("...hqk,...khd->...qhd", weights, v)
        return nn.DenseGeneral(x.shape[-1], axis=(-2, -1))(out)
