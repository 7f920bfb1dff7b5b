from typing import Callable, Optional

import haiku as hk
import jax
import jax.numpy as jnp


class MultiHeadAttention(hk.Module):
    """hk.MultiHeadAttention with the attention function passed in."""

    def __init__(
        self,
        num_heads: int,
        key_size: int,
        attention_fn: Callable,
        w_init: Optional[hk.initializers.Initializer] = None,
        with_bias: bool = True,
        value_size: Optional[int] = None,
        model_size: Optional[int] = None,
        name: Optional[str] = None,
    ):
        super().__init__(name=name)
        self.num_heads = num_heads
        self.key_size = key_size
        self.value_size = value_size or key_size
        self.model_size = model_size or key_size * num_heads
        self.w_init = w_init
        self.with_bias = with_bias
        self.attention_fn = attention_fn

    def __call__(self, query: jax.Array, key: jax.Array, value: jax.Array, mask: Optional[jax.Array] = None):
        *leading_dims, sequence_length, _ = query.shape
        query_heads = self._linear_projection(query, self.key_size, "query")  # [T', H, K]
        key_heads = self._linear_projection(key, self.key_size, "key")  # [T, H, K]
        value_heads = self._linear_projection(value, self.value_size, "value")  # [T, H, V]
        attn = self.attention_fn(query_heads, key_heads, value_heads, mask=mask)
        attn = jnp.reshape(attn, (*leading_dims, sequence_length, -1))  # [T', H * V]
        return hk.Linear(self.model_size, w_init=self.w_init, with_bias=self.with_bias)(attn)

    @hk.transparent
    def _linear_projection(self, x: jax.Array, head_size: int, name: Optional[str] = None) -> jax.Array:
        y = hk.Linear(self.num_heads * head_size, w_init=self.w_init, with_bias=self.with_bias, name=name)(x)
        *leading_dims, _ = x.shape
        return y.reshape((*leading_dims, self.num_heads, head_size))
