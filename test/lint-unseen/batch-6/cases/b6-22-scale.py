# case: b6-22-scale
# modelled-on: djvaroli/jax-transformer https://github.com/djvaroli/jax-transformer/commit/0b273a9c7e1a97ee7e904561d55b152b606a7297
# label: buggy
# class: real-bug
# pattern: a Flax GPT-style language model whose attention takes a pluggable scaling_function for the logits (default sqrt_model_dim_scaling, which divides its argument by sqrt(x.shape[-1]); alternatives max_abs_scaling and no_scaling); the multi-head module splits a fused qkv into (b, heads, seq, d_head) and calls the single-head routine, which computes q @ swapaxes(k), applies scaling_function to the logits, adds an additive mask and softmaxes over axis=-1
# why: buggy: applied to the (..., seq_len, seq_len) logits, x.shape[-1] is the number of keys, so the default divides by sqrt(seq_len) instead of sqrt(d_head) as its docstring and the paper intend (the routine computed 1 / sqrt(q.shape[-1]) itself before commit ea97acbc394f217781fb8771afd52bd40a2c4b33 moved the scale into this helper); no later fix was found
# source: https://github.com/djvaroli/jax-transformer https://github.com/djvaroli/jax-transformer/commit/ea97acbc394f217781fb8771afd52bd40a2c4b33 wheeljax/model/attention.py
from typing import Callable, Optional, Tuple

import jax
from flax import linen as nn
from jax import Array
from jax import numpy as jnp


def sqrt_model_dim_scaling(x: Array) -> Array:
    """Scales an array by sqrt(model_dim)."""
    return x / jnp.sqrt(x.shape[-1])


def max_abs_scaling(x: Array) -> Array:
    return x / jnp.max(jnp.abs(x))


def no_scaling(x: Array) -> Array:
    return x


def _scaled_dot_product_attention_with_logits(
    q: Array, k: Array, v: Array, mask: Optional[Array] = None, scaling_function: Callable[[Array], Array] = sqrt_model_dim_scaling
) -> Tuple[Array, Array, Array]:
    """q, k: (..., seq_len, Dk); v: (..., seq_len, Dv); mask additive (0 attend, -inf masked)."""
    attention_logits = jnp.matmul(q, jnp.swapaxes(k, -2, -1))  # (..., seq_len, seq_len)
    # scaling prevents variance from exploding
    attention_logits = scaling_function(attention_logits)  # expect: ATT004
    attention_logits = attention_logits + mask if mask is not None else attention_logits
    attention_weights = jax.nn.softmax(attention_logits, axis=-1)
    return jnp.matmul(attention_weights, v), attention_weights, attention_logits


class MultiHeadedAttention(nn.Module):
    model_dim: int
    n_heads: int
    scaling_function: Callable[[Array], Array] = sqrt_model_dim_scaling

    def setup(self) -> None:
        if self.model_dim % self.n_heads != 0:
            raise ValueError("Model dimension must be evenly divisible by the number of attention heads.")
        self.qkv_dense = nn.Dense(3 * self.model_dim)
        self.out_dense = nn.Dense(self.model_dim)

    def __call__(self, inputs: Array, attention_mask: Optional[Array] = None):
        batch_size, seq_len, dim = inputs.shape
        qkv = self.qkv_dense(inputs).reshape(batch_size, seq_len, self.n_heads, -1)
        qkv = jnp.transpose(qkv, (0, 2, 1, 3))  # (b, heads, seq, 3 * d_head)
        q, k, v = jnp.array_split(qkv, 3, axis=-1)
        attn, attn_weights, _ = _scaled_dot_product_attention_with_logits(q, k, v, attention_mask, self.scaling_function)
        attn = jnp.transpose(attn, (0, 2, 1, 3)).reshape(batch_size, seq_len, dim)
        return self.out_dense(attn), attn_weights


def causal_mask(seq_len: int) -> Array:
    # additive: -inf strictly above the diagonal
    return jnp.triu(jnp.full((1, 1, seq_len, seq_len), -jnp.inf), k=1)
