# case: b33-07-clean
# modelled-on: raynbowy23/rays_lab https://github.com/raynbowy23/rays_lab/commit/409ce3c1a65fbbd2bff43d62e7e1bd6542db0c57
# label: correct
# class: clean
# pattern: a Transformer written from scratch in JAX with Haiku (a Japanese-novel language model in a personal lab repository): MultiHeadAttention projects query, key and value to (..., tokens, heads, key_size), computes logits with einsum('...thd, ...Thd -> ...htT'), divides them by sqrt(key_size), keeps them where a 0/1 mask is set (jnp.where(mask, logits, -1e30)), and calls jax.nn.softmax with no axis; SelfAttention multiplies an optional attention mask by the causal keep mask np.tril(np.ones((seq_len, seq_len))) and passes it down
# why: correct: the tril matrix is 1 on the keys a query may see, and jnp.where(mask, logits, -1e30) keeps exactly those (the diagonal is always kept); jax.nn.softmax normalises over the last axis by default, which is T, the key axis of the (heads, t, T) logits; the einsum contracts the feature axis d, so no transpose of the keys is needed; the scale is the per-head key size; -1e30 is finite in float32 and bfloat16
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/raynbowy23/rays_lab https://github.com/raynbowy23/rays_lab/commit/409ce3c1a65fbbd2bff43d62e7e1bd6542db0c57 Transformer/multihead_attention.py
from typing import Optional

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class MultiHeadAttention(hk.Module):
    """Split query, key and value into head_num small heads, attend in each, and concatenate."""

    def __init__(self, num_heads: int, key_size: int, w_init_scale: float, value_size: Optional[int] = None,
                 model_size: Optional[int] = None, dropout_rate: float = 0.0, name: Optional[str] = None):
        super().__init__(name=name)
        self.head_num = num_heads
        self.key_size = key_size
        self.value_size = value_size or key_size
        self.model_size = model_size or key_size * self.head_num
        self.w_init = hk.initializers.VarianceScaling(w_init_scale)
        self.dropout_rate = dropout_rate

    def __call__(self, query: jnp.ndarray, key: Optional[jnp.ndarray] = None, value: Optional[jnp.ndarray] = None,
                 mask: Optional[jnp.ndarray] = None, name: Optional[str] = None) -> jnp.ndarray:
        query_heads = self._linear_projection(query, self.key_size, "query")  # WQ
        key_heads = self._linear_projection(key, self.key_size, "key")  # WK
        value_heads = self._linear_projection(value, self.value_size, "value")  # WV

        # [batch, heads, q_tokens, k_tokens]
        attn_logits = jnp.einsum('...thd, ...Thd -> ...htT', query_heads, key_heads)
        sqrt_key_size = np.sqrt(self.key_size).astype(key.dtype)
        attn_logits = attn_logits / sqrt_key_size
        if mask is not None:
            assert mask.shape == attn_logits.shape[-2:]
            attn_logits = jnp.where(mask, attn_logits, -1e30)

        attention_weights = jax.nn.softmax(attn_logits)
        attn = jnp.einsum("...htT, ...Thd -> ...thd", attention_weights, value_heads)
        # concatenate the heads of each token
        attn_vec = jnp.reshape(attn, (*query.shape[:-1], -1))
        return hk.Linear(self.model_size, w_init=self.w_init)(attn_vec)  # WO

    @hk.transparent
    def _linear_projection(self, x: jnp.ndarray, head_size: int, name: Optional[str] = None) -> jnp.ndarray:
        y = hk.Linear(self.head_num * head_size, w_init=self.w_init, name=name)(x)
        return y.reshape((*x.shape[:-1], self.head_num, head_size))


class SelfAttention(MultiHeadAttention):
    """Self-attention with a causal mask applied."""

    def __call__(self, query: jnp.ndarray, key: Optional[jnp.ndarray] = None, value: Optional[jnp.ndarray] = None,
                 attention_mask: Optional[jnp.ndarray] = None, name: Optional[str] = None) -> jnp.ndarray:
        key = key if key is not None else query
        value = value if value is not None else query

        seq_len = query.shape[1]
        causal_mask = np.tril(np.ones((seq_len, seq_len)))
        attention_mask = attention_mask * causal_mask if attention_mask is not None else causal_mask
        return super().__call__(query=query, key=key, value=value, mask=attention_mask, name=name)


class DecoderBlock(hk.Module):
    def __init__(self, num_heads: int, key_size: int, hidden_dim: int, name: Optional[str] = None):
        super().__init__(name=name)
        self.num_heads = num_heads
        self.key_size = key_size
        self.hidden_dim = hidden_dim

    def __call__(self, x: jnp.ndarray, memory: jnp.ndarray) -> jnp.ndarray:
        model_size = self.num_heads * self.key_size
        h = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(x)
        x = x + SelfAttention(self.num_heads, self.key_size, 2.0, name="self_attn")(h)
        h = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(x)
        x = x + MultiHeadAttention(self.num_heads, self.key_size, 2.0, name="cross_attn")(h, memory, memory)
        h = hk.LayerNorm(axis=-1, create_scale=True, create_offset=True)(x)
        h = jax.nn.relu(hk.Linear(self.hidden_dim)(h))
        return x + hk.Linear(model_size)(h)
