# case: scale-gemma-query-pre-attn-scalar
# modelled-on: google-deepmind/gemma https://github.com/google-deepmind/gemma/blob/main/gemma/gm/nn/_modules.py
# label: correct
# pattern: Flax linen attention with a left-aligned ring KV cache: the query is multiplied by query_pre_attn_scalar (a config value, head_dim**-0.5 or (embed_dim/num_heads)**-0.5 depending on the model size), optional tanh soft-capping of the logits, a [B, T, S] keep-mask applied with jnp.where and a huge finite negative constant, softmax over axis=-1
# why: the 1/sqrt scale is folded into the query before the einsum; K_MASK (about -2.38e38) is within float32/bfloat16 range and the logits are computed in those dtypes; 'BTNS' puts the key axis last
# looks-like: ATT003, ATT004, ATT007
import enum

import flax.linen as nn
import jax
import jax.numpy as jnp

K_MASK = -2.3819763e38  # Set to a large negative number.
DEFAULT_ROPE_BASE_FREQUENCY = 10_000


class AttentionType(enum.Enum):
  GLOBAL = 1
  LOCAL_SLIDING = 2


def apply_rope(inputs: jax.Array, positions: jax.Array, *, base_frequency: int, scale_factor: float = 1.0) -> jax.Array:
  first_half, second_half = jnp.split(inputs, 2, axis=-1)
  head_dim = inputs.shape[-1]
  fraction = 2 * jnp.arange(0, head_dim // 2) / head_dim
  timescale = base_frequency**fraction
  sinusoid_inp = positions[..., jnp.newaxis] / timescale[jnp.newaxis, jnp.newaxis, :]
  sinusoid_inp = sinusoid_inp[..., jnp.newaxis, :] / scale_factor
  sin = jnp.sin(sinusoid_inp)
  cos = jnp.cos(sinusoid_inp)
  first_part = first_half * cos - second_half * sin
  second_part = second_half * cos + first_half * sin
  return jnp.concatenate([first_part, second_part], axis=-1).astype(inputs.dtype)


def create_sliding_mask(segment_pos: jax.Array, sliding_window_size: int) -> jax.Array:
  pos_diff = segment_pos[:, :, None] - segment_pos[:, None, :]
  return (pos_diff < sliding_window_size) & (pos_diff > -sliding_window_size)


class Attention(nn.Module):
  """Attention module."""

  num_heads: int
  num_kv_heads: int
  features: int
  head_dim: int
  attn_type: AttentionType
  query_pre_attn_scalar: float
  rope_base_frequency: int = DEFAULT_ROPE_BASE_FREQUENCY
  attn_logits_soft_cap: float | None = None
  sliding_window_size: int | None = None

  def setup(self):
    self.q_einsum = self.param('q_einsum', nn.initializers.normal(), (self.num_heads, self.features, self.head_dim))
    self.kv_einsum = self.param('kv_einsum', nn.initializers.normal(), (2, self.num_kv_heads, self.features, self.head_dim))
    self.attn_vec_einsum = self.param('attn_vec_einsum', nn.initializers.normal(), (self.num_heads, self.head_dim, self.features))

  def __call__(
      self,
      x: jax.Array,
      segment_pos: jax.Array,
      cache: dict | None,
      attn_mask: jax.Array,
  ) -> tuple[dict | None, jax.Array]:
    """Applies multi-head attention to the inputs.

    Args:
      x: Input sequence of shape [batch_size, seq_len, embed_dim].
      segment_pos: Input absolute positions of shape [batch_size, seq_len].
      cache: KV cache or None.
      attn_mask: Attention mask of shape [batch_size, seq_len, cache_size].
    """
    query_proj = jnp.einsum('BTD,NDH->BTNH', x, self.q_einsum)
    key_proj, value_proj = jnp.einsum('BSD,CKDH->CBSKH', x, self.kv_einsum)

    query_proj = apply_rope(query_proj, segment_pos, base_frequency=self.rope_base_frequency)
    query_scaled = query_proj * self.query_pre_attn_scalar

    key_proj = apply_rope(key_proj, segment_pos, base_frequency=self.rope_base_frequency)

    # Cache is left aligned.
    if cache is not None:
      end_index = cache['end_index'][0]
      cache_size = cache['v'].shape[1]
      slice_indices = (0, end_index % cache_size, 0, 0)
      value_proj = jax.lax.dynamic_update_slice(cache['v'], value_proj, slice_indices)
      key_proj = jax.lax.dynamic_update_slice(cache['k'], key_proj, slice_indices)

    if self.num_kv_heads != self.num_heads and self.num_kv_heads > 1:
      b, t, kg, h = query_scaled.shape
      query_scaled = query_scaled.reshape((b, t, self.num_kv_heads, int(kg / self.num_kv_heads), h))
      logits = jnp.einsum('BTKGH,BSKH->BTKGS', query_scaled, key_proj)
      b, t, k, g, s = logits.shape
      logits = logits.reshape((b, t, k * g, s))
    else:
      # [batch_size, seq_len, num_heads, cache_size]
      logits = jnp.einsum('BTNH,BSNH->BTNS', query_scaled, key_proj)

    if self.attn_logits_soft_cap is not None:
      logits = jnp.tanh(logits / self.attn_logits_soft_cap)
      logits = logits * self.attn_logits_soft_cap

    if self.attn_type == AttentionType.LOCAL_SLIDING:
      if self.sliding_window_size is None:
        raise ValueError('Sliding_window_size must be set if Local Sliding attention type')
      sliding_mask = create_sliding_mask(segment_pos, sliding_window_size=self.sliding_window_size)
      attn_mask *= sliding_mask

    padded_logits = jnp.where((jnp.expand_dims(attn_mask, -2)), logits, K_MASK)

    # Multi-head attention matrices.
    probs = jax.nn.softmax(padded_logits, axis=-1).astype(key_proj.dtype)

    if self.num_kv_heads != self.num_heads and self.num_kv_heads > 1:
      b, t, kg, h = probs.shape
      probs = probs.reshape((b, t, self.num_kv_heads, int(kg / self.num_kv_heads), h))
      encoded = jnp.einsum('BTKGS,BSKH->BTKGH', probs, value_proj)
      b, t, k, g, h = encoded.shape
      encoded = encoded.reshape((b, t, k * g, h))
    else:
      encoded = jnp.einsum('BTNS,BSNH->BTNH', probs, value_proj)

    attn_output = jnp.einsum('BTNH,NHD->BTD', encoded, self.attn_vec_einsum)

    if cache is not None:
      new_cache = {
          'v': value_proj,
          'k': key_proj,
          'end_index': cache['end_index'] + x.shape[1],
      }
    else:
      new_cache = None

    return new_cache, attn_output
