# case: t19l-05-clean
# modelled-on: NZ99/self-attention-experiments-vision https://github.com/NZ99/self-attention-experiments-vision/commit/34a18c4d479195155d0850ddeb0b5a1aa345b6f7
# label: correct
# class: clean
# pattern: a Flax attention block for vision transformers (ViT / CaiT experiments) with optional talking-heads attention: queries, keys and values come from DenseGeneral with features (num_heads, head_ch) where head_ch may be set explicitly or defaults to in_ch / num_heads; the queries alone are divided by jnp.sqrt(head_ch); einsum "q h d, k h d -> h q k" gives the logits; a head-mixing module from another file is applied before nn.softmax (default axis=-1) and a second one after it, then the weights are dropped out and contracted with the values
# why: correct: the scale is the per-head width actually used by the projections, applied once, to the queries; nn.softmax's default axis is the key axis k of "h q k"; mixing the heads' weights after the softmax is the talking-heads design (Shazeer et al. 2020), not a mask applied after the softmax
# looks-like: ATT001, ATT003, ATT004, ATT006
# source: https://github.com/NZ99/self-attention-experiments-vision https://github.com/NZ99/self-attention-experiments-vision/commit/34a18c4d479195155d0850ddeb0b5a1aa345b6f7 models/layers/attentions/attention.py, models/layers/attentions/talking_heads.py
from functools import partial
from typing import Optional

from flax import linen as nn
from jax import numpy as jnp

from .mixing import HeadMixer


class MultiHeadBlock(nn.Module):
    num_heads: int
    head_ch: Optional[int] = None
    out_ch: Optional[int] = None
    talking_heads: bool = False
    attn_dropout_rate: float = 0.0
    out_dropout_rate: float = 0.0
    use_bias: bool = False
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, inputs_q, inputs_kv, is_training: bool):
        assert inputs_q.ndim == inputs_kv.ndim == 3
        in_ch = inputs_q.shape[-1]
        assert in_ch % self.num_heads == 0
        head_ch = self.head_ch or int(in_ch / self.num_heads)
        out_ch = self.out_ch or in_ch

        proj = partial(nn.DenseGeneral, axis=-1, features=(self.num_heads, head_ch), use_bias=self.use_bias, dtype=self.dtype)
        q = proj(name="q")(inputs_q)
        k = proj(name="k")(inputs_kv)
        v = proj(name="v")(inputs_kv)

        q = q / jnp.sqrt(head_ch)
        logits = jnp.einsum("... q h d, ... k h d -> ... h q k", q, k)
        if self.talking_heads:
            logits = HeadMixer(num_heads=self.num_heads)(logits)

        weights = nn.softmax(logits)

        if self.talking_heads:
            weights = HeadMixer(num_heads=self.num_heads)(weights)
        weights = nn.Dropout(rate=self.attn_dropout_rate)(weights, deterministic=not is_training)

        ctx = jnp.einsum("... h q k, ... k h d -> ... q h d", weights, v)
        out = nn.DenseGeneral(features=out_ch, axis=(-2, -1), use_bias=self.use_bias, dtype=self.dtype)(ctx)
        return nn.Dropout(rate=self.out_dropout_rate)(out, deterministic=not is_training)


class SelfAttentionBlock(MultiHeadBlock):
    @nn.compact
    def __call__(self, inputs, is_training: bool):
        return super().__call__(inputs, inputs, is_training=is_training)
