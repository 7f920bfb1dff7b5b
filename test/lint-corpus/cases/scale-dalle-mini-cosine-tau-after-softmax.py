# case: scale-dalle-mini-cosine-tau-after-softmax
# modelled-on: borisdayma/dalle-mini https://github.com/borisdayma/dalle-mini/commit/f05d82b9c474a27f9def742ce97c1d265a2952e4
# label: buggy
# pattern: Flax attention with an optional cosine attention (Swin v2): q and k L2-normalised, then a shared weights helper (adapted from flax.linen) that scales q by 1/sqrt(depth), adds the bias and takes the softmax; the module then divides the returned weights by the learned temperature tau
# why: the temperature of cosine attention belongs on the logits; dividing the weights after the softmax only rescales rows that should sum to 1 (and the logits keep the 1/sqrt(depth) meant for unnormalised q and k). Fixed in "fix: swin v2 scaling" (tau passed into the helper and applied to the logits instead of 1/sqrt(depth))
from typing import Any, Optional

import flax.linen as nn
import jax
import jax.numpy as jnp


def dot_product_attention_weights(query: Any, key: Any, bias: Optional[Any] = None, dtype: Any = jnp.float32):
    """Attention weights of (batch, q_len, heads, depth) queries and keys; adapted from flax.linen."""
    assert query.shape[-1] == key.shape[-1], "q, k depths must match."
    depth = query.shape[-1]
    query = query / jnp.sqrt(depth).astype(dtype)
    # (batch, heads, q_len, kv_len)
    attn_weights = jnp.einsum("...qhd,...khd->...hqk", query, key)
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
            self.tau = self.param("tau", jax.nn.initializers.constant(self.tau_init), (1, self.num_heads, 1, 1))

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

        attn_weights = dot_product_attention_weights(query_states, key_states, bias=attention_bias, dtype=self.dtype)
        if self.use_cosine_attention:
            # divide by tau
            attn_weights = attn_weights / jnp.maximum(self.tau, 0.01)  # expect: ATT004

        attn_output = jnp.einsum("...hqk,...khd->...qhd", attn_weights, value_states)
        return self.out_proj(attn_output.reshape(b, n, self.embed_dim)), attn_weights
