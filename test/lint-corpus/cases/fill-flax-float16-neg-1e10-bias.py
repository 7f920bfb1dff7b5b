# case: fill-flax-float16-neg-1e10-bias
# modelled-on: google/flax https://github.com/google/flax/issues/982
# label: buggy
# pattern: a Flax SelfAttention module configured with dtype=jnp.float16 turns its boolean mask into a bias with lax.select(mask > 0, 0, -1e10).astype(self.dtype)
# why: -1e10 cast to float16 becomes -inf; rows whose keys are all masked then give exp(-inf - (-inf)) = NaN, which is the reported NaN output (float32 and bfloat16 were fine)
import jax.numpy as jnp
from flax import linen as nn
from jax import lax


class SelfAttention(nn.Module):
    num_heads: int
    qkv_features: int
    dtype: jnp.dtype = jnp.float16

    @nn.compact
    def __call__(self, inputs_q, mask=None):
        head_dim = self.qkv_features // self.num_heads
        dense = lambda name: nn.DenseGeneral(features=(self.num_heads, head_dim), dtype=self.dtype, name=name)
        query, key, value = dense("query")(inputs_q), dense("key")(inputs_q), dense("value")(inputs_q)
        query = query / jnp.sqrt(head_dim).astype(self.dtype)

        attention_bias = None
        if mask is not None:
            attention_bias = lax.select(
                mask > 0,
                jnp.full(mask.shape, 0.0).astype(self.dtype),
                jnp.full(mask.shape, -1e10).astype(self.dtype),  # expect: ATT007
            )
        attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
        if attention_bias is not None:
            attn_weights = attn_weights + attention_bias
        attn_weights = nn.softmax(attn_weights, axis=-1)
        out = jnp.einsum("...hqk,...khd->...qhd", attn_weights, value)
        return nn.DenseGeneral(features=inputs_q.shape[-1], axis=(-2, -1), dtype=self.dtype, name="out")(out)


def make_model(num_heads: int = 8, features: int = 512) -> SelfAttention:
    return SelfAttention(num_heads=num_heads, qkv_features=features, dtype=jnp.float16)
