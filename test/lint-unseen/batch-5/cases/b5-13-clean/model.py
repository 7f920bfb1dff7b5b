# case: b5-13-clean
# modelled-on: adonath/nanogptx https://github.com/adonath/nanogptx/commit/1beadf6180fddf63468ba93d52be4c0c62bf9ecc
# label: correct
# class: clean
# pattern: a JAX port of nanoGPT written as registered dataclasses: the causal self-attention splits the fused projection, reshapes query, key and value to [batch, sequence, heads, head_dim] and calls jax.nn.dot_product_attention(..., is_causal=True) without a cache; a utility module beside it has a plain matmul attention (swapaxes of the key, division by sqrt(d_k), jnp.where(mask == 0, -jnp.inf, ...), softmax over the last axis) for back ends without the fused kernel
# why: correct: jax.nn.dot_product_attention takes the [B, T, N, H] layout (no key transpose by the caller), applies 1/sqrt(head_dim) itself, and is_causal=True is right for a full sequence with no cached keys; the helper's mask is 1 = attend and its -inf fill is applied where it is 0
# looks-like: ATT002, ATT003, ATT005, ATT008
# source: https://github.com/adonath/nanogptx https://github.com/adonath/nanogptx/commit/1beadf6180fddf63468ba93d52be4c0c62bf9ecc src/model.py
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp

BATCH, SEQUENCE, FEATURE = 0, 1, 2


@dataclass
class Dense:
    weight: jax.Array
    bias: jax.Array

    def __call__(self, x):
        return x @ self.weight + self.bias


@jax.tree_util.register_dataclass
@dataclass
class CausalSelfAttention:
    c_attn: Dense
    c_proj: Dense
    n_head: int = field(metadata=dict(static=True))

    def __call__(self, x):
        query, key, value = jnp.split(self.c_attn(x), 3, axis=FEATURE)
        # [B, T, C] -> [B, T, N, C // N]
        shape = (x.shape[BATCH], x.shape[SEQUENCE], self.n_head, x.shape[FEATURE] // self.n_head)
        query = jnp.reshape(query, shape)
        key = jnp.reshape(key, shape)
        value = jnp.reshape(value, shape)
        out = jax.nn.dot_product_attention(
            query=query,
            key=key,
            value=value,
            is_causal=True,
            implementation="xla",
        )
        out = jnp.reshape(out, x.shape)
        return self.c_proj(out)
