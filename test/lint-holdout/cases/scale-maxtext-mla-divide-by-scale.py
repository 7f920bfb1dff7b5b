# case: scale-maxtext-mla-divide-by-scale
# modelled-on: AI-Hypercomputer/maxtext https://github.com/AI-Hypercomputer/maxtext/issues/1370
# label: buggy
# pattern: Flax multi-head latent attention; the framework never scales inside the attention op (the base class folds 1/sqrt(head_dim) into the query kernel init), so MLA scales its query in the projection with a softmax_scale computed in setup, including the YaRN mscale correction
# why: softmax_scale is qk_head_dim**-0.5 (times mscale^2), so dividing the query by it multiplies the logits by sqrt(qk_head_dim) instead of dividing; confirmed in #1370 and fixed in f1498e1 by multiplying instead
from typing import Optional, Tuple

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn

Array = jnp.ndarray
DType = jnp.dtype

DEFAULT_MASK_VALUE = -0.7 * float(np.finfo(np.dtype("float32")).max)


def apply_mask_to_logits(logits: Array, mask: Array):
  """Applies a floating-point mask to a set of logits.

  The mask is 0 where attention is allowed and DEFAULT_MASK_VALUE elsewhere.
  """
  return jnp.where((mask >= DEFAULT_MASK_VALUE * 0.5), logits, DEFAULT_MASK_VALUE)


class AttentionOp(nn.Module):
  num_query_heads: int
  num_kv_heads: int
  float32_logits: bool = False
  dtype: DType = jnp.float32

  def generate_attention_mask(self, query, key, decoder_segment_ids: Optional[Array]) -> Optional[Array]:
    mask = None
    if decoder_segment_ids is not None:
      mask = decoder_segment_ids[:, :, None] == decoder_segment_ids[:, None, :]
      mask = mask[:, None, None, :, :]
    q_seq_len, kv_seq_len = query.shape[1], key.shape[1]
    row_ids = jax.lax.broadcasted_iota(jnp.int32, (q_seq_len, kv_seq_len), 0)
    col_ids = jax.lax.broadcasted_iota(jnp.int32, (q_seq_len, kv_seq_len), 1)
    causal_mask = (col_ids <= row_ids)[None, None, None, :, :]
    output_mask = causal_mask if mask is None else jnp.logical_and(mask, causal_mask)
    return jnp.where(output_mask, 0.0, DEFAULT_MASK_VALUE)

  def qk_product(self, query: Array, key: Array) -> Array:
    b, t, n, d = query.shape
    n_kv = key.shape[-2]
    assert n_kv == self.num_kv_heads
    query = jnp.reshape(query, (b, t, n_kv, n // n_kv, d))
    return jnp.einsum("btkgd,bskd->bkgts", query, key)

  def wv_product(self, attn_weights: Array, value: Array) -> Array:
    out = jnp.einsum("bkgts,bskd->btkgd", attn_weights, value)
    b, t, n_kv, g, d = out.shape
    return jnp.reshape(out, (b, t, n_kv * g, d))

  def compute_local_attention(self, attn_weights: Array, value: Array) -> Array:
    local_max = jnp.max(attn_weights, axis=-1, keepdims=True)
    local_exps = jnp.exp(attn_weights - local_max)
    local_sum = jnp.sum(local_exps, axis=-1, keepdims=True)
    local_out = self.wv_product(local_exps, value)
    local_sum = jnp.moveaxis(local_sum, -2, 1)
    local_sum = jnp.reshape(local_sum, (local_sum.shape[0], local_sum.shape[1], -1, 1))
    return local_out / local_sum

  @nn.compact
  def __call__(self, query, key, value, decoder_segment_ids=None):
    attn_weights = self.qk_product(query, key)
    if self.float32_logits:
      attn_weights = attn_weights.astype(jnp.float32)
    attn_mask = self.generate_attention_mask(query, key, decoder_segment_ids)
    if attn_mask is not None:
      attn_weights = apply_mask_to_logits(attn_weights, attn_mask)
    return self.compute_local_attention(attn_weights, value).astype(self.dtype)


class Attention(nn.Module):
  num_query_heads: int
  num_kv_heads: int
  head_dim: int
  dtype: DType = jnp.float32

  def query_projection(self, inputs_q: Array) -> Array:
    # NOTE: T5 does not explicitly rescale the attention logits by
    #       1/sqrt(depth_kq)!  This is folded into the initializers of the
    #       linear transformations, which is equivalent under Adafactor.
    depth_scaling = jnp.sqrt(self.head_dim).astype(self.dtype)

    def query_init(*args):
      return nn.initializers.lecun_normal()(*args) / depth_scaling

    return nn.DenseGeneral(
        features=(self.num_query_heads, self.head_dim),
        axis=-1,
        kernel_init=query_init,
        dtype=self.dtype,
        name="query",
    )(inputs_q)


class MLA(Attention):
  q_lora_rank: int = 0
  kv_lora_rank: int = 512
  qk_nope_head_dim: int = 128
  qk_rope_head_dim: int = 64
  v_head_dim: int = 128
  max_position_embeddings: int = 4096 * 4
  original_max_position_embeddings: int = 4096
  mscale: float = 1.0
  rope_factor: float = 40.0

  def setup(self):
    self.qk_head_dim = self.qk_nope_head_dim + self.qk_rope_head_dim
    self.query_proj = nn.DenseGeneral(features=(self.num_query_heads, self.qk_head_dim), axis=-1, dtype=self.dtype)
    self.wkv_a = nn.DenseGeneral(features=self.kv_lora_rank + self.qk_rope_head_dim, axis=-1, dtype=self.dtype)
    self.kv_norm = nn.RMSNorm(dtype=self.dtype)
    self.wkv_b = nn.DenseGeneral(
        features=(self.num_query_heads, self.qk_nope_head_dim + self.v_head_dim), axis=-1, dtype=self.dtype
    )
    self.out = nn.DenseGeneral(features=self.num_query_heads * self.v_head_dim, axis=(-2, -1), dtype=self.dtype)
    self.attention_op = AttentionOp(num_query_heads=self.num_query_heads, num_kv_heads=self.num_query_heads)

    # Set softmax scaling.
    self.softmax_scale = self.qk_head_dim**-0.5
    if self.max_position_embeddings > self.original_max_position_embeddings:
      mscale = 0.1 * self.mscale * jnp.log(self.rope_factor) + 1.0
      self.softmax_scale = self.softmax_scale * mscale * mscale

  def apply_rotary_embedding(self, x: Array, positions: Array) -> Array:
    half = x.shape[-1] // 2
    freqs = 1.0 / (10000 ** (jnp.arange(half) / half))
    angles = positions[..., None, None] * freqs
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * jnp.cos(angles) - x2 * jnp.sin(angles), x2 * jnp.cos(angles) + x1 * jnp.sin(angles)], axis=-1)

  def mla_query_projection(self, inputs_q: Array, inputs_positions: Array) -> Array:
    """Query projection for MLA."""
    q = self.query_proj(inputs_q)
    # Split into non-positional and rotary parts.
    q_nope, q_pe = jnp.split(q, [self.qk_nope_head_dim], axis=-1)
    q_pe = self.apply_rotary_embedding(q_pe, inputs_positions)
    # Query projection is scaled by 1 / self.softmax_scale to be consistent with the MaxText implementation.
    # DeepSeek v3 was doing it in attention score computation.
    return jnp.concatenate([q_nope, q_pe], axis=-1) / self.softmax_scale  # expect: ATT004

  def mla_kv_projection(self, inputs: Array, inputs_positions: Array) -> Tuple[Array, Array]:
    low_rank = self.wkv_a(inputs)
    low_rank_main, low_rank_rope = jnp.split(low_rank, [self.kv_lora_rank], axis=-1)
    low_rank_main = self.kv_norm(low_rank_main)
    kv_out = self.wkv_b(low_rank_main)
    key_nope, value = jnp.split(kv_out, [self.qk_nope_head_dim], axis=-1)
    key_rope = jnp.expand_dims(low_rank_rope, axis=2)
    key_rope = self.apply_rotary_embedding(key_rope, inputs_positions)
    key_rope = jnp.broadcast_to(key_rope, (key_nope.shape[0], key_nope.shape[1], self.num_query_heads, key_rope.shape[3]))
    key = jnp.concatenate([key_nope, key_rope], axis=-1)
    return key, value

  def __call__(self, inputs_q: Array, inputs_kv: Array, inputs_positions: Array, decoder_segment_ids=None) -> Array:
    query = self.mla_query_projection(inputs_q, inputs_positions)
    key, value = self.mla_kv_projection(inputs_kv, inputs_positions)
    value = jnp.pad(value, ((0, 0), (0, 0), (0, 0), (0, self.qk_head_dim - self.v_head_dim)))
    out = self.attention_op(query, key, value, decoder_segment_ids)
    out = out[..., : self.v_head_dim]
    return self.out(out)
