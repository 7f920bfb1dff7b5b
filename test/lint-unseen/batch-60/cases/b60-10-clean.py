# case: b60-10-clean
# modelled-on: nilushacj/Slot-attention-SAVi-adapt https://github.com/nilushacj/Slot-attention-SAVi-adapt/commit/349f3f57b80cd859fd16aa41c810be988b979d0a
# label: correct
# class: clean
# pattern: a Flax slot-attention module from a SAVi (slot attention for video) adaptation: queries come from the slots, keys and values from the frame features, both through DenseGeneral into (..., n, heads, head_dim); a generalized dot-product attention divides the queries by sqrt(qk_features), takes `jax.nn.softmax(attn, axis=-2)` over the query (slot) axis when `inverted_attn` is set, then renormalises each slot's weights over the keys by their sum plus epsilon; a GRU cell updates the slots for a few iterations; the same attention function, un-inverted (softmax over the last axis), serves the transformer blocks
# why: correct: slot attention deliberately normalises over the slots so that slots compete for each input feature (the "inverted" attention of the paper), and the following division by the per-slot sum turns the weights into a weighted mean over the inputs; axis -2 of (..., heads, q, k) is exactly the slot axis; the 1/sqrt(d) scale is applied once, to the queries; no mask is used (every feature is real)
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/nilushacj/Slot-attention-SAVi-adapt https://github.com/nilushacj/Slot-attention-SAVi-adapt/commit/349f3f57b80cd859fd16aa41c810be988b979d0a ADD_ws/model/savi/modules/attention.py
import functools
from typing import Any, Optional

import jax
import jax.numpy as jnp
from flax import linen as nn

Array = Any


class DotProductAttention(nn.Module):
    """Dot-product attention whose softmax axis can be switched to the queries."""

    inverted_attn: bool = False
    renormalize_keys: bool = False
    epsilon: float = 1e-8
    dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, query: Array, key: Array, value: Array, train: bool = False, **kwargs) -> Array:
        # query: [..., q, heads, d]; key / value: [..., k, heads, d]
        assert query.ndim == key.ndim == value.ndim and query.shape[-1] == key.shape[-1]
        if kwargs.get("bias") is not None:
            raise NotImplementedError("masked attention is not supported")
        query = query / jnp.sqrt(query.shape[-1]).astype(self.dtype)
        attn = jnp.einsum("...qhd,...khd->...hqk", query, key)
        axis = -2 if self.inverted_attn else -1    # slots compete for inputs, or keys for a query
        attn = jax.nn.softmax(attn, axis=axis).astype(self.dtype)
        if not train:
            self.sow("intermediates", "attn", attn)
        if self.renormalize_keys:
            attn = attn / (jnp.sum(attn, axis=-1, keepdims=True) + self.epsilon)
        return jnp.einsum("...hqk,...khd->...qhd", attn, value)


class SlotAttention(nn.Module):
    num_iterations: int = 1
    qkv_size: Optional[int] = None
    mlp_size: Optional[int] = None
    num_heads: int = 1

    @nn.compact
    def __call__(self, slots: Array, inputs: Array, train: bool = False) -> Array:
        size = self.qkv_size or slots.shape[-1]
        proj = functools.partial(nn.DenseGeneral, axis=-1, features=(self.num_heads, size // self.num_heads),
                                 use_bias=False)
        to_q, norm_q = proj(name="q"), nn.LayerNorm()
        attend = DotProductAttention(inverted_attn=True, renormalize_keys=True)
        gru = nn.GRUCell(features=slots.shape[-1])

        inputs = nn.LayerNorm()(inputs)
        k, v = proj(name="k")(inputs), proj(name="v")(inputs)
        for _ in range(self.num_iterations):
            updates = attend(to_q(norm_q(slots)), k, v, train=train)
            if self.num_heads > 1:
                updates = nn.DenseGeneral(features=updates.shape[-1], axis=(-2, -1))(updates)
            else:
                updates = jnp.squeeze(updates, axis=-2)
            slots, _ = gru(slots, updates)
            if self.mlp_size is not None:
                h = nn.Dense(self.mlp_size)(nn.LayerNorm()(slots))
                slots = slots + nn.Dense(slots.shape[-1])(nn.relu(h))
        return slots


class SlotTransformerBlock(nn.Module):
    """Post-norm block for the slot predictor: self-attention over slots, then an MLP."""

    num_heads: int
    qkv_size: int
    mlp_size: int

    @nn.compact
    def __call__(self, slots: Array, train: bool = False) -> Array:
        mha = nn.MultiHeadDotProductAttention(num_heads=self.num_heads, qkv_features=self.qkv_size,
                                              attention_fn=DotProductAttention())
        x = nn.LayerNorm()(slots + mha(inputs_q=slots, inputs_kv=slots, deterministic=not train))
        y = nn.Dense(x.shape[-1])(nn.relu(nn.Dense(self.mlp_size)(x)))
        return nn.LayerNorm()(x + y)
