# case: scale-dalle-mini-cosine-tau-on-logits
# modelled-on: borisdayma/dalle-mini https://github.com/borisdayma/dalle-mini/commit/f05d82b9c474a27f9def742ce97c1d265a2952e4
# label: correct
# pattern: Flax attention with an optional cosine attention (Swin v2): q and k L2-normalised, then a shared weights helper (adapted from flax.linen) that divides the logits by the temperature tau when one is given, else by sqrt(depth), adds the bias and takes the softmax
# why: the fixed form: the helper takes the temperature and divides the logits by it (cosine attention), or by sqrt(depth) when there is none; nothing rescales the weights after the softmax
# looks-like: ATT004, ATT003
from typing import Any, Optional

import flax.linen as nn
import jax
import jax.numpy as jnp


def dot_product_attention_weights(query: Any, key: Any, bias: Optional[Any] = None, dtype: Any = jnp.float32, tau=None):
    """Attention weights of (batch, q_len, heads, depth) queries and keys; adapted from flax.linen."""
    assert query.shape[-1] == key.shape[-1], "q, k depths must match."
    # (batch, heads, q_len, kv_len)
    attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
    # divide by tau (cosine attention, Swin v2), else by sqrt(depth)
    if tau is not None:
        attn_weights = attn_weights / tau
    else:
        depth = query.shape[-1]
        attn_weights = attn_weights / jnp.sqrt(depth).astype(dtype)
    if bias is not None:
        attn_weights = attn_weights + bias
    return jax.nn.softmax(attn_weights).astype(dtype)


class CosineAttention(nn.Module):
    embed_dim: int
    num_heads: int
    tau_init: float = 0.05
    use_cosine_attention: bool = True
    dtype: Any = jnp.float32

    def setup(self):
        self.head_dim = self.embed_dim // self.num_heads
        self.q_proj = nn.Dense(self.embed_dim, dtype=self.dtype)
        self.k_proj = nn.Dense(self.embed_dim, dtype=self.dtype)
        self.v_proj = nn.Dense(self.embed_dim, dtype=self.dtype)
        self.out_proj = nn.Dense(self.embed_dim, dtype=self.dtype)
        if self.use_cosine_attention:
            self.tau = self.tau_init

    def __call__(self, hidden_states, attention_mask=None):
        b, n, _ = hidden_states.shape
        query_states = self.q_proj(hidden_states).reshape(b, n, self.num_heads, self.head_dim)
        key_states = self.k_proj(hidden_states).reshape(b, n, self.num_heads, self.head_dim)
        value_states = self.v_proj(hidden_states).reshape(b, n, self.num_heads, self.head_dim)

        attention_bias = None
        if attention_mask is not None:
            attention_bias = jnp.where(attention_mask[:, None, None, :] > 0, 0.0, -jnp.inf).astype(self.dtype)

        if self.use_cosine_attention:
            query_states = query_states / (jnp.linalg.norm(query_states, axis=-1, keepdims=True) + 1e-8)
            key_states = key_states / (jnp.linalg.norm(key_states, axis=-1, keepdims=True) + 1e-8)

        tau = self.tau if self.use_cosine_attention else None
        attn_weights = dot_product_attention_weights(query_states, key_states, bias=attention_bias, dtype=self.dtype, tau=tau)

        attn_output = jnp.einsum("...hqk,...khd->...qhd", attn_weights, value_states)
        return self.out_proj(attn_output.reshape(b, n, self.embed_dim)), attn_weights
