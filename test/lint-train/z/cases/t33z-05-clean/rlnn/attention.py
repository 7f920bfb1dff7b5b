# case: t33z-05-clean
# modelled-on: xlnwel/grl2-jax https://github.com/xlnwel/grl2-jax/commit/9df6ead1bad0d9ae0022df6f298e10eb1215634d
# label: correct
# class: clean
# pattern: a Haiku (JAX) attention module of a multi-agent RL library: q is scaled by k.shape[-1] ** -.5 before q @ swapaxes(k, -2, -1); the mask is a keep mask (1 / True = may attend): jnp.tri(T) when the caller (another module) passes the string 'causal', combined with 0/1 masks built as outer products with matmul (data_mask[..., :, None] @ data_mask[..., None, :], query and key masks times ones) and jnp.logical_and; jnp.where(mask, logits, -jnp.inf), jax.nn.softmax over axis=-1, jnp.nan_to_num for the rows of padded agents that have no visible key, and the output features multiplied by the query's 0/1 mask after the projection
# why: correct: jnp.where keeps the logits where the mask is 1 (tri is 1 on and below the diagonal, the outer-product masks are 1 where both agents exist) and -inf elsewhere, before the softmax over the keys; rows with every key hidden become NaN and nan_to_num zeroes them (padded agents, whose outputs are then zeroed by the query mask); the scale is the per-head width; multiplying the output features by the query mask is not a mask of the scores
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/xlnwel/grl2-jax https://github.com/xlnwel/grl2-jax/commit/9df6ead1bad0d9ae0022df6f298e10eb1215634d nn/attention.py
import haiku as hk
import jax
from jax import numpy as jnp

CAUSAL = 'causal'


def dropout(x, rate, training):
  if not training or rate == 0:
    return x
  keep = jax.random.bernoulli(hk.next_rng_key(), 1 - rate, x.shape)
  return jnp.where(keep, x / (1 - rate), 0)


class Attention(hk.Module):
  def __init__(self, name='attention', scale_logits=True, n_heads=1,
               attn_dropout=0, res_dropout=0, out_size=None):
    super().__init__(name=name)
    self.scale_logits = scale_logits
    self.n_heads = n_heads
    self.attn_dropout = attn_dropout
    self.res_dropout = res_dropout
    self.out_size = out_size

  def __call__(self, x, kv=None, mask=None, data_mask=None,
               query_mask=None, kv_mask=None, training=False):
    if kv is None:
      kv = x
    size = self.out_size or x.shape[-1]
    q = hk.Linear(size, name='query')(x)
    k = hk.Linear(size, name='key')(kv)
    v = hk.Linear(size, name='value')(kv)

    if self.n_heads > 1:
      q, k, v = [split_heads(t, self.n_heads) for t in (q, k, v)]

    mask = self._base_mask(q.shape[-2], mask)
    mask = combine_masks(mask, data_mask, query_mask, kv_mask, nq=q.shape[-2], nk=k.shape[-2])
    if mask is not None and self.n_heads > 1:
      mask = jnp.expand_dims(mask, -3)
    x = attend(q, k, v, mask=mask, scale_logits=self.scale_logits,
               attn_dropout=self.attn_dropout, training=training)

    if self.n_heads > 1:
      x = merge_heads(x)
    x = hk.Linear(size, name='projection')(x)
    out_mask = output_mask(data_mask, query_mask)
    if out_mask is not None:
      x = x * out_mask
    return dropout(x, self.res_dropout, training)

  def _base_mask(self, T, mask):
    if mask == CAUSAL:
      mask = jnp.tri(T)
    return mask


def split_heads(x, n_heads):
  x = x.reshape(*x.shape[:-1], n_heads, x.shape[-1] // n_heads)
  return jnp.swapaxes(x, -2, -3)


def merge_heads(x):
  x = jnp.swapaxes(x, -2, -3)
  return x.reshape(*x.shape[:-2], -1)


def attend(q, k, v, mask=None, scale_logits=True, attn_dropout=0, training=False):
  """softmax(q k^T) v"""
  if scale_logits:
    q *= k.shape[-1] ** -.5
  logits = q @ jnp.swapaxes(k, -2, -1)
  if mask is not None:
    logits = jnp.where(mask, logits, -jnp.inf)
  weights = jax.nn.softmax(logits, axis=-1)
  weights = jnp.nan_to_num(weights)
  weights = dropout(weights, attn_dropout, training)
  return weights @ v


def combine_masks(mask, data_mask, query_mask, kv_mask, nq, nk):
  if data_mask is not None:
    pair = jnp.expand_dims(data_mask, -1)
    pair = pair @ jnp.swapaxes(pair, -2, -1)
    mask = pair if mask is None else jnp.logical_and(pair, mask)
  if query_mask is not None:
    rows = jnp.expand_dims(query_mask, -1) @ jnp.ones(query_mask.shape[:-1] + (1, nk))
    mask = rows if mask is None else jnp.logical_and(rows, mask)
  if kv_mask is not None:
    cols = jnp.ones(kv_mask.shape[:-1] + (nq, 1)) @ jnp.expand_dims(kv_mask, -2)
    mask = cols if mask is None else jnp.logical_and(cols, mask)
  return mask


def output_mask(data_mask, query_mask):
  if query_mask is not None:
    data_mask = query_mask if data_mask is None else jnp.logical_and(data_mask, query_mask)
  if data_mask is not None:
    data_mask = jnp.expand_dims(data_mask, -1)
  return data_mask
