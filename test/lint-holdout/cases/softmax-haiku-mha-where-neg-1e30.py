# case: softmax-haiku-mha-where-neg-1e30
# modelled-on: google-deepmind/dm-haiku https://github.com/google-deepmind/dm-haiku/blob/main/haiku/_src/attention.py
# label: correct
# pattern: JAX/Haiku multi-head attention with a [T', T] boolean keep-mask that broadcasts over batch and heads, an einsum producing [..., H, T', T] logits, jnp.where(mask, logits, -1e30), and jax.nn.softmax without an explicit axis
# why: jax.nn.softmax defaults to axis=-1, the key axis T of "...htT"; logits are divided by sqrt(key_size); the -1e30 fill is finite and representable in float32/bfloat16, which is what Haiku models run in
# looks-like: ATT001, ATT007
import types
from typing import Optional
import warnings

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class MultiHeadAttention(hk.Module):
  """Multi-headed attention (MHA) module."""

  def __init__(
      self,
      num_heads: int,
      key_size: int,
      w_init_scale: Optional[float] = None,
      *,
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
    self.with_bias = with_bias

    if w_init_scale is not None:
      warnings.warn("w_init_scale is deprecated; please pass an explicit weight initialiser instead.")
      w_init = hk.initializers.VarianceScaling(w_init_scale)
    if w_init is None:
      raise ValueError("Please provide a weight initializer: `w_init`.")
    self.w_init = w_init

  def __call__(
      self,
      query: jax.Array,
      key: jax.Array,
      value: jax.Array,
      mask: Optional[jax.Array] = None,
  ) -> jax.Array:
    """Computes (optionally masked) MHA with queries, keys & values.

    Args:
      query: Embeddings sequence used to compute queries; shape [..., T', D_q].
      key: Embeddings sequence used to compute keys; shape [..., T, D_k].
      value: Embeddings sequence used to compute values; shape [..., T, D_v].
      mask: Optional mask applied to attention weights; shape [..., H=1, T', T].

    Returns:
      A new sequence of embeddings, consisting of a projection of the
        attention-weighted value projections; shape [..., T', D'].
    """
    # In shape hints below, we suppress the leading dims [...] for brevity.
    # Hence e.g. [A, B] should be read in every case as [..., A, B].
    *leading_dims, sequence_length, _ = query.shape
    projection = self._linear_projection

    # Compute key/query/values (overload K/Q/V to denote the respective sizes).
    query_heads = projection(query, self.key_size, "query")  # [T', H, Q=K]
    key_heads = projection(key, self.key_size, "key")  # [T, H, K]
    value_heads = projection(value, self.value_size, "value")  # [T, H, V]

    # Compute attention weights.
    attn_logits = jnp.einsum("...thd,...Thd->...htT", query_heads, key_heads)
    attn_logits = attn_logits / np.sqrt(self.key_size).astype(key.dtype)
    if mask is not None:
      if mask.ndim != attn_logits.ndim:
        raise ValueError(
            f"Mask dimensionality {mask.ndim} must match logits dimensionality "
            f"{attn_logits.ndim}."
        )
      attn_logits = jnp.where(mask, attn_logits, -1e30)
    attn_weights = jax.nn.softmax(attn_logits)  # [H, T', T]

    # Weight the values by the attention and flatten the head vectors.
    attn = jnp.einsum("...htT,...Thd->...thd", attn_weights, value_heads)
    attn = jnp.reshape(attn, (*leading_dims, sequence_length, -1))  # [T', H*V]

    # Apply another projection to get the final embeddings.
    final_projection = hk.Linear(self.model_size, w_init=self.w_init,
                                 with_bias=self.with_bias)
    return final_projection(attn)  # [T', D']

  @hk.transparent
  def _linear_projection(
      self,
      x: jax.Array,
      head_size: int,
      name: Optional[str] = None,
  ) -> jax.Array:
    y = hk.Linear(self.num_heads * head_size, w_init=self.w_init,
                  with_bias=self.with_bias, name=name)(x)
    *leading_dims, _ = x.shape
    return y.reshape((*leading_dims, self.num_heads, head_size))


def causal_mask(seq_len: int) -> jax.Array:
  return jnp.tril(jnp.ones((1, 1, seq_len, seq_len), dtype=bool))
