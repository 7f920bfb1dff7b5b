# case: b31-07-clean
# modelled-on: arnavw/modernbert-flax https://github.com/arnavw/modernbert-flax/commit/5072cf5f26976f9504e718aa1ca20977b8e78157
# label: correct
# class: clean
# pattern: a Flax NNX port of the ModernBERT encoder: a fused Wqkv projection is reshaped to (B, T, 3, H, K) and unstacked, rotary embeddings are applied in float32, and jax.nn.dot_product_attention runs on (B, T, H, K) queries/keys/values with a boolean padding mask padding_mask_BT[:, None, None, :], is_causal=False and, on two layers out of three, a symmetric local_window_size of half the local attention span; the tests build padding_mask_BT with True on real tokens and False on padding
# why: correct: jax.nn.dot_product_attention takes a boolean mask in which True means "attend", so a mask that is True on real tokens keeps them and drops the padded keys; the (B, T, N, H) layout is the one the function expects and it applies the 1/sqrt(head_dim) scale itself; an encoder is bidirectional, so is_causal=False and the sliding window (left, right) = (w/2, w/2) is the intended local attention; no query row is left without a key, since every sequence has real tokens and each window contains its own position
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/arnavw/modernbert-flax https://github.com/arnavw/modernbert-flax/commit/5072cf5f26976f9504e718aa1ca20977b8e78157 modeling.py
"""ModernBERT in Flax NNX

Dimension key: B batch, T sequence, D hidden, F intermediate, V vocabulary, H heads, K head dim.
"""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import nnx


@dataclass
class Config:
  vocab_size: int = 50368
  hidden_size: int = 768
  num_hidden_layers: int = 22
  num_attention_heads: int = 12
  intermediate_size: int = 1152
  max_position_embeddings: int = 8192
  norm_eps: float = 1e-5
  pad_token_id: int = 50283
  global_attn_every_n_layers: int = 3
  local_attention: int = 128
  global_rope_theta: float = 160_000.0
  local_rope_theta: float = 10_000.0

  @property
  def head_dim(self) -> int:
    return self.hidden_size // self.num_attention_heads

  @property
  def layer_types(self) -> list[str]:
    return ["global" if i % self.global_attn_every_n_layers == 0 else "sliding" for i in range(self.num_hidden_layers)]


class MLP(nnx.Module):
  def __init__(self, cfg: Config, *, rngs):
    self.Wi = nnx.Linear(cfg.hidden_size, cfg.intermediate_size * 2, use_bias=False, rngs=rngs)
    self.Wo = nnx.Linear(cfg.intermediate_size, cfg.hidden_size, use_bias=False, rngs=rngs)

  def __call__(self, hidden_BTD: jax.Array) -> jax.Array:
    gated, gate = jnp.split(self.Wi(hidden_BTD), 2, axis=-1)
    return self.Wo(jax.nn.gelu(gated, approximate=False) * gate)


def rotate_half(x: jax.Array) -> jax.Array:
  d = x.shape[-1] // 2
  return jnp.concatenate([-x[..., d:], x[..., :d]], axis=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
  orig_dtype = q.dtype
  q = q.astype(jnp.float32)
  k = k.astype(jnp.float32)
  q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
  return q.astype(orig_dtype), k.astype(orig_dtype)


class Attention(nnx.Module):
  def __init__(self, cfg: Config, *, rngs):
    self.num_heads = cfg.num_attention_heads
    self.head_dim = cfg.head_dim
    self.Wqkv = nnx.Linear(cfg.hidden_size, 3 * cfg.hidden_size, use_bias=False, rngs=rngs)
    self.Wo = nnx.Linear(cfg.hidden_size, cfg.hidden_size, use_bias=False, rngs=rngs)

  def __call__(self, hidden_BTD, cos_TK, sin_TK, mask=None, local_window_size=None):
    B, T, _ = hidden_BTD.shape
    qkv = self.Wqkv(hidden_BTD).reshape(B, T, 3, self.num_heads, self.head_dim)
    q, k, v = jnp.unstack(qkv, axis=2)

    cos = cos_TK[None, :T, None, :]
    sin = sin_TK[None, :T, None, :]
    q, k = apply_rotary_pos_emb(q, k, cos, sin)

    h = jax.nn.dot_product_attention(
      q,
      k,
      v,
      mask=mask,
      is_causal=False,
      local_window_size=local_window_size,
    ).reshape(B, T, -1)
    return self.Wo(h)


class EncoderLayer(nnx.Module):
  def __init__(self, cfg: Config, layer_idx: int, *, rngs):
    self.has_attn_norm = layer_idx != 0
    if self.has_attn_norm:
      self.attn_norm = nnx.LayerNorm(cfg.hidden_size, epsilon=cfg.norm_eps, use_bias=False, rngs=rngs)
    self.attn = Attention(cfg, rngs=rngs)
    self.mlp_norm = nnx.LayerNorm(cfg.hidden_size, epsilon=cfg.norm_eps, use_bias=False, rngs=rngs)
    self.mlp = MLP(cfg, rngs=rngs)

  def __call__(self, hidden_BTD, cos_TK, sin_TK, mask=None, local_window_size=None):
    normed_BTD = self.attn_norm(hidden_BTD) if self.has_attn_norm else hidden_BTD
    hidden_BTD = hidden_BTD + self.attn(normed_BTD, cos_TK, sin_TK, mask, local_window_size)
    return hidden_BTD + self.mlp(self.mlp_norm(hidden_BTD))


def build_rope_cache(seq_len: int, head_dim: int, theta: float):
  inv_freq = 1.0 / (theta ** (jnp.arange(0, head_dim, 2, dtype=jnp.float32) / head_dim))
  freqs = jnp.outer(jnp.arange(seq_len, dtype=jnp.float32), inv_freq)
  emb = jnp.concatenate([freqs, freqs], axis=-1)
  return jnp.cos(emb), jnp.sin(emb)


class ModernBert(nnx.Module):
  def __init__(self, cfg: Config, *, rngs):
    self.cfg = cfg
    self.token_embeddings = nnx.Embed(num_embeddings=cfg.vocab_size, features=cfg.hidden_size, rngs=rngs)
    self.embed_norm = nnx.LayerNorm(cfg.hidden_size, epsilon=cfg.norm_eps, use_bias=False, rngs=rngs)
    self.layers = nnx.List([EncoderLayer(cfg, i, rngs=rngs) for i in range(cfg.num_hidden_layers)])
    self.final_norm = nnx.LayerNorm(cfg.hidden_size, epsilon=cfg.norm_eps, use_bias=False, rngs=rngs)
    self.global_cos, self.global_sin = build_rope_cache(cfg.max_position_embeddings, cfg.head_dim, cfg.global_rope_theta)
    self.local_cos, self.local_sin = build_rope_cache(cfg.max_position_embeddings, cfg.head_dim, cfg.local_rope_theta)

  def __call__(self, token_ids_BT: jax.Array, padding_mask_BT: jax.Array | None = None) -> jax.Array:
    hidden_BTD = self.embed_norm(self.token_embeddings(token_ids_BT))

    mask = padding_mask_BT[:, None, None, :] if padding_mask_BT is not None else None
    half_w = self.cfg.local_attention // 2

    for i, layer in enumerate(self.layers):
      is_global = self.cfg.layer_types[i] == "global"
      cos_TK = self.global_cos if is_global else self.local_cos
      sin_TK = self.global_sin if is_global else self.local_sin
      window = None if is_global else (half_w, half_w)
      hidden_BTD = layer(hidden_BTD, cos_TK, sin_TK, mask=mask, local_window_size=window)

    return self.final_norm(hidden_BTD)
