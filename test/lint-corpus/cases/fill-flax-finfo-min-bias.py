# case: fill-flax-finfo-min-bias
# modelled-on: google/flax https://github.com/google/flax/pull/1527
# label: correct
# pattern: the fix proposed in #1527: pick the masking value from the module dtype, jnp.finfo(self.dtype).min for float16 and -1e10 otherwise
# why: finfo(float16).min = -65504 stays finite; -1e10 is only used for float32/bfloat16, where it is representable
# looks-like: ATT007
import jax.numpy as jnp
from flax import linen as nn
from jax import lax


class SelfAttention(nn.Module):
    num_heads: int
    qkv_features: int
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, inputs_q, mask=None):
        head_dim = self.qkv_features // self.num_heads
        dense = lambda name: nn.DenseGeneral(features=(self.num_heads, head_dim), dtype=self.dtype, name=name)
        query, key, value = dense("query")(inputs_q), dense("key")(inputs_q), dense("value")(inputs_q)
        query = query / jnp.sqrt(head_dim).astype(self.dtype)

        attention_bias = None
        if mask is not None:
            if self.dtype == jnp.float16:
                large_compatible_negative = jnp.finfo(self.dtype).min
            else:
                large_compatible_negative = -1e10
            attention_bias = lax.select(
                mask > 0,
                jnp.full(mask.shape, 0.0).astype(self.dtype),
                jnp.full(mask.shape, large_compatible_negative).astype(self.dtype),
            )
        attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
        if attention_bias is not None:
            attn_weights = attn_weights + attention_bias
        attn_weights = nn.softmax(attn_weights, axis=-1)
        return jnp.einsum("...hqk,...khd->...qhd", attn_weights, value)
