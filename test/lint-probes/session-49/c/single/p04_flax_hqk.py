import jax
import jax.numpy as jnp
import flax.linen as nn


class SelfAttention(nn.Module):
    num_heads: int
    head_dim: int

    @nn.compact
    def __call__(self, x, pad_mask):
        # x: (batch, length, features); pad_mask: (batch, length), True at tokens
        q = nn.DenseGeneral((self.num_heads, self.head_dim), name="query")(x)
        k = nn.DenseGeneral((self.num_heads, self.head_dim), name="key")(x)
        v = nn.DenseGeneral((self.num_heads, self.head_dim), name="value")(x)
        q = q / jnp.sqrt(self.head_dim).astype(q.dtype)
        logits = jnp.einsum("...qhd,...khd->...hqk", q, k)
        big_neg = jnp.finfo(logits.dtype).min
        logits = jnp.where(pad_mask[:, None, None, :], logits, big_neg)
        weights = jax.nn.softmax(logits, axis=-1)
        out = jnp.einsum("...hqk,...khd->...qhd", weights, v)
        return nn.DenseGeneral(x.shape[-1], axis=(-2, -1), name="out")(out)
