# case: b30-08-clean
# modelled-on: adi-kmt/nanogpt-jax https://github.com/adi-kmt/nanogpt-jax/commit/47224e8e33c8192c81efb17fb525817a8990bc0f
# label: correct
# class: clean
# pattern: a nanoGPT rewrite in JAX with Equinox: MultiHeadAttention projects x (B, T, D) with its own Linear modules, rearranges q, k and v to (B, T, H, D_head) for the rotary embedding, transposes them to (B, H, T, D_head) with jnp.transpose(x, (0, 2, 1, 3)), forms the scores with jnp.einsum('b h s d, b h t d -> b h s t'), divides by jnp.sqrt(config.d_head), expands a (T, T) boolean mask to (1, 1, T, T) and keeps the scores with jnp.where(mask, scores, -jnp.inf), softmaxes over axis=-1 and contracts the weights with the values over t; the model builds the mask as jnp.tril(jnp.ones((T, T), dtype=bool)) when none is given
# why: correct: after the transposes the einsum contracts the per-head features d and leaves (b, h, s, t) scores, queries by keys, so no key transpose is missing; the scale is 1/sqrt of one head's width; the tril mask is True on keys at or before the query and jnp.where keeps exactly those, sending future keys to -inf before the softmax over the key axis t (the diagonal is always allowed, so no row is all -inf); the weighted sum contracts t
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/adi-kmt/nanogpt-jax https://github.com/adi-kmt/nanogpt-jax/commit/47224e8e33c8192c81efb17fb525817a8990bc0f attentions.py
from typing import Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from einops import rearrange
from jaxtyping import Array, Bool, Float, Int

from config import GPTConfig
from layers import Linear


class MultiHeadAttention(eqx.Module):
    w_q: Linear
    w_k: Linear
    w_v: Linear
    w_o: Linear
    config: GPTConfig = eqx.field(static=True)

    def __init__(self, config: GPTConfig, key: jax.random.PRNGKey):
        key1, key2, key3, key4 = jax.random.split(key, 4)
        self.config = config
        self.w_q = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key1)
        self.w_k = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key2)
        self.w_v = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key3)
        self.w_o = Linear(config.d_model, config.d_model, use_bias=config.use_bias, key=key4)

    def __call__(self, x: Float[Array, "batch seq_len d_model"], key: jax.random.PRNGKey,
                 mask: Bool[Array, "seq_len seq_len"]) -> Float[Array, "batch seq_len d_model"]:

        # Project to Q, K, V
        q = self.w_q(x)  # [B, S, D]
        k = self.w_k(x)  # [B, S, D]
        v = self.w_v(x)  # [B, S, D]

        # Reshape to BTHD format (Batch, Time, Heads, Dim_head)
        q = rearrange(q, "b t (h d) -> b t h d", h=self.config.n_heads, d=self.config.d_head)
        k = rearrange(k, "b t (h d) -> b t h d", h=self.config.n_heads, d=self.config.d_head)
        v = rearrange(v, "b t (h d) -> b t h d", h=self.config.n_heads, d=self.config.d_head)

        # Compute attention scores: [B, H, S, S]
        # Need to transpose for einsum: BTHD -> BHTD
        q_transposed = jnp.transpose(q, (0, 2, 1, 3))  # [B, H, T, D]
        k_transposed = jnp.transpose(k, (0, 2, 1, 3))  # [B, H, T, D]
        v_transposed = jnp.transpose(v, (0, 2, 1, 3))  # [B, H, T, D]

        attn_scores = jnp.einsum('b h s d, b h t d -> b h s t', q_transposed, k_transposed)
        attn_scores = attn_scores / jnp.sqrt(self.config.d_head)

        # Apply causal mask
        if mask is not None:
            # Expand mask to [B, H, S, S] format
            mask = jnp.expand_dims(mask, (0, 1))  # [1, 1, S, S]
            attn_scores = jnp.where(mask, attn_scores, -jnp.inf)

        attn_weights = jax.nn.softmax(attn_scores, axis=-1)

        # Apply attention to values: [B, H, S, D_head]
        out = jnp.einsum('b h s t, b h t d -> b h s d', attn_weights, v_transposed)

        # Transpose back to [B, S, H, D] then reshape to [B, S, D]
        out = jnp.transpose(out, (0, 2, 1, 3))  # [B, S, H, D]
        out = rearrange(out, "b s h d -> b s (h d)", h=self.config.n_heads, d=self.config.d_head)
        return self.w_o(out)


class TinyGPT(eqx.Module):
    wte: eqx.nn.Embedding
    blocks: list
    config: GPTConfig = eqx.field(static=True)

    def __init__(self, config: GPTConfig, key: jax.random.PRNGKey):
        keys = jax.random.split(key, config.n_layers + 1)
        self.config = config
        self.wte = eqx.nn.Embedding(config.vocab_size, config.d_model, key=keys[0])
        self.blocks = [MultiHeadAttention(config, key=k) for k in keys[1:]]

    def __call__(self, input_ids: Int[Array, "batch seq_len"], key: jax.random.PRNGKey,
                 mask: Optional[Bool[Array, "seq_len seq_len"]] = None) -> Float[Array, "batch seq_len d_model"]:
        x = jax.vmap(jax.vmap(self.wte))(input_ids)

        B, T = x.shape[:2]
        if mask is None:
            mask = jnp.tril(jnp.ones((T, T), dtype=bool))

        keys = jax.random.split(key, len(self.blocks))
        for block, k in zip(self.blocks, keys):
            x = x + block(x, key=k, mask=mask)
        return x
