# case: b3-31-clean
# modelled-on: young-geng/EasyLM https://github.com/young-geng/EasyLM/commit/fe5b2c354e25d697fce7cd225e23bbbe72570da3
# label: correct
# class: clean
# pattern: Flax LLaMA attention with a decoding cache: a full causal mask is built once with make_causal_mask, sliced with lax.dynamic_slice from row cache_index when a cache exists (else the top-left [:q, :k] block), combined with the padding mask, then the keys and values are written into the cache with dynamic_update_slice and a mask of the filled cache positions is combined in; the boolean mask becomes a bias with lax.select(mask > 0, 0, finfo.min) for flax's dot_product_attention_weights, which scales by 1/sqrt(head_dim) itself
# why: slicing the causal mask at row cache_index aligns the new queries with their absolute positions in the cache (bottom-right), and the cache-occupancy mask hides the unwritten slots; finfo(dtype).min is representable in bfloat16 / float16; the scale is applied inside dot_product_attention_weights
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/young-geng/EasyLM https://github.com/young-geng/EasyLM/commit/fe5b2c354e25d697fce7cd225e23bbbe72570da3 EasyLM/models/llama/llama_model.py
import einops
import flax.linen as nn
import jax
import jax.numpy as jnp
from flax.linen import combine_masks, make_causal_mask
from flax.linen.attention import dot_product_attention_weights


class LLaMAAttention(nn.Module):
    num_heads: int
    head_dim: int
    max_position_embeddings: int
    dtype: jnp.dtype = jnp.float32

    def setup(self):
        self.wq = nn.Dense(self.num_heads * self.head_dim, use_bias=False, dtype=self.dtype)
        self.wk = nn.Dense(self.num_heads * self.head_dim, use_bias=False, dtype=self.dtype)
        self.wv = nn.Dense(self.num_heads * self.head_dim, use_bias=False, dtype=self.dtype)
        self.wo = nn.Dense(self.num_heads * self.head_dim, use_bias=False, dtype=self.dtype)

    def _concatenate_to_cache(self, key, value, query, attention_mask):
        is_initialized = self.has_variable("cache", "cached_key")
        cached_key = self.variable("cache", "cached_key", jnp.zeros, key.shape, key.dtype)
        cached_value = self.variable("cache", "cached_value", jnp.zeros, value.shape, value.dtype)
        cache_index = self.variable("cache", "cache_index", lambda: jnp.array(0, dtype=jnp.int32))
        if is_initialized:
            *batch_dims, max_length, num_heads, depth_per_head = cached_key.value.shape
            cur_index = cache_index.value
            indices = (0,) * len(batch_dims) + (cur_index, 0, 0)
            key = jax.lax.dynamic_update_slice(cached_key.value, key, indices)
            value = jax.lax.dynamic_update_slice(cached_value.value, value, indices)
            cached_key.value, cached_value.value = key, value
            num_updated = query.shape[1]
            cache_index.value = cache_index.value + num_updated
            # the new queries may only attend to the cache slots written so far
            pad_mask = jnp.broadcast_to(
                jnp.arange(max_length) < cur_index + num_updated,
                tuple(batch_dims) + (1, num_updated, max_length),
            )
            attention_mask = combine_masks(pad_mask, attention_mask)
        return key, value, attention_mask

    def __call__(self, hidden_states, attention_mask, init_cache=False):
        xq = einops.rearrange(self.wq(hidden_states), "b s (h d) -> b s h d", h=self.num_heads)
        xk = einops.rearrange(self.wk(hidden_states), "b s (h d) -> b s h d", h=self.num_heads)
        xv = einops.rearrange(self.wv(hidden_states), "b s (h d) -> b s h d", h=self.num_heads)

        query_length, key_length = xq.shape[1], xk.shape[1]
        full_causal_mask = make_causal_mask(jnp.ones((1, self.max_position_embeddings), dtype="bool"), dtype="bool")
        if self.has_variable("cache", "cached_key"):
            mask_shift = self.variables["cache"]["cache_index"]
            max_decoder_length = self.variables["cache"]["cached_key"].shape[1]
            causal_mask = jax.lax.dynamic_slice(full_causal_mask, (0, 0, mask_shift, 0), (1, 1, query_length, max_decoder_length))
        else:
            causal_mask = full_causal_mask[:, :, :query_length, :key_length]

        batch_size = hidden_states.shape[0]
        causal_mask = jnp.broadcast_to(causal_mask, (batch_size,) + causal_mask.shape[1:])
        attention_mask = jnp.broadcast_to(jnp.expand_dims(attention_mask, axis=(-3, -2)), causal_mask.shape)
        attention_mask = combine_masks(attention_mask, causal_mask)

        if self.has_variable("cache", "cached_key") or init_cache:
            xk, xv, attention_mask = self._concatenate_to_cache(xk, xv, xq, attention_mask)

        # boolean mask -> additive bias
        attention_bias = jax.lax.select(
            attention_mask > 0,
            jnp.full(attention_mask.shape, 0.0).astype(self.dtype),
            jnp.full(attention_mask.shape, jnp.finfo(self.dtype).min).astype(self.dtype),
        )
        attn_weights = dot_product_attention_weights(xq, xk, bias=attention_bias, dtype=jnp.promote_types(self.dtype, jnp.float32))
        attn_output = jnp.einsum("...hqk,...khd->...qhd", attn_weights, xv)
        return self.wo(einops.rearrange(attn_output, "b s h d -> b s (h d)"))
