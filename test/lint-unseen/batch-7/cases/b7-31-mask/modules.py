# case: b7-31-mask
# modelled-on: alexjackson1/jax-transformer https://github.com/alexjackson1/jax-transformer/commit/7686cc9708d384d2073f40e9906efa21463c7bc7
# label: buggy
# class: real-bug
# pattern: a Flax port of the "clean GPT-2" teaching transformer: per-head kernels (n_heads, d_model, d_head) applied with einops.einsum, scores "b pq n h, b pk n h -> b n pq pk" scaled by d_head ** 0.5, then apply_causal_mask builds triu(ones_like(scores), k=1) and blends scores * mask - 1e10 * (1 - mask) before a softmax over the keys; the sizes come from a Config dataclass in another file
# why: buggy: triu(..., k=1) is 1 strictly above the diagonal, on the future keys, and the blend keeps the scores where the mask is 1 and writes -1e10 where it is 0, so every query attends only to the keys after it (the last query to nothing but -1e10s, a uniform row); the method's name and the PyTorch original it ports (masked_fill(triu(..., diagonal=1), -inf)) hide the future. No fix was found
# source: https://github.com/alexjackson1/jax-transformer https://github.com/alexjackson1/jax-transformer/commit/7686cc9708d384d2073f40e9906efa21463c7bc7 modules.py

import einops
import flax.linen as nn
import jax
import jax.numpy as jnp

from config import Config


class Attention(nn.Module):
    cfg: Config

    def setup(self):
        init = jax.nn.initializers.normal(self.cfg.init_range)
        qkv_shape = (self.cfg.n_heads, self.cfg.d_model, self.cfg.d_head)
        self.kernel_query = self.param("kernel_query", init, qkv_shape)
        self.kernel_key = self.param("kernel_key", init, qkv_shape)
        self.kernel_value = self.param("kernel_value", init, qkv_shape)
        self.kernel_out = self.param("kernel_out", init, (self.cfg.n_heads, self.cfg.d_head, self.cfg.d_model))

    def __call__(self, x):
        # x: (b, p, m)
        qkv_tx = "b p m, n m h -> b p n h"
        query = einops.einsum(x, self.kernel_query, qkv_tx)
        key = einops.einsum(x, self.kernel_key, qkv_tx)
        value = einops.einsum(x, self.kernel_value, qkv_tx)
        attn_scores = einops.einsum(query, key, "b pq n h, b pk n h -> b n pq pk")
        attn_scores_scaled = attn_scores / self.cfg.d_head**0.5
        attn_scores_masked = self.apply_causal_mask(attn_scores_scaled)
        attn_pattern = jax.nn.softmax(attn_scores_masked, axis=-1)
        z = einops.einsum(value, attn_pattern, "b pk n h, b n pq pk -> b pq n h")
        return einops.einsum(z, self.kernel_out, "b pq n h, n h m -> b pq m")

    def apply_causal_mask(self, attn_scores: jax.Array):
        mask = jnp.triu(jnp.ones_like(attn_scores), k=1)
        return attn_scores * mask - 1e10 * (1 - mask)  # expect: ATT002
