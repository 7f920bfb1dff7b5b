# case: b5-24-clean
# modelled-on: enerrio/jax-transformer https://github.com/enerrio/jax-transformer/commit/65864e45089ec9cee031a22f0a26bfbf0065fe45
# label: correct
# class: clean
# pattern: an Equinox GPT whose attention works on one unbatched sequence (the model is vmapped over the batch elsewhere): projections are applied per position with jax.vmap, heads are split with einops.rearrange, the queries are divided by sqrt(head_dim) before the product, the keys are transposed with a second rearrange ("heads seq_len head_dim -> heads head_dim seq_len"), and a tril boolean mask keeps the past through jnp.where(mask, scores, -inf) before a softmax over the last axis
# why: correct: scaling the queries by 1/sqrt(head_dim) before q @ k^T is the same as scaling the scores; the rearrange is the key transpose; the tril mask is True at the visible keys and jnp.where keeps the scores there
# looks-like: ATT002, ATT003, ATT005
# source: https://github.com/enerrio/jax-transformer https://github.com/enerrio/jax-transformer/commit/65864e45089ec9cee031a22f0a26bfbf0065fe45 transformer/model.py
import einops
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


class CausalSelfAttention(eqx.Module):
    W_q: eqx.nn.Linear
    W_k: eqx.nn.Linear
    W_v: eqx.nn.Linear
    out_proj: eqx.nn.Linear
    drop: eqx.nn.Dropout
    n_heads: int = eqx.field(static=True)

    def __init__(self, emb_dim, n_heads, p_drop, key):
        k1, k2, k3, k4 = jr.split(key, 4)
        self.n_heads = n_heads
        self.W_q = eqx.nn.Linear(emb_dim, emb_dim, use_bias=False, key=k1)
        self.W_k = eqx.nn.Linear(emb_dim, emb_dim, use_bias=False, key=k2)
        self.W_v = eqx.nn.Linear(emb_dim, emb_dim, use_bias=False, key=k3)
        self.out_proj = eqx.nn.Linear(emb_dim, emb_dim, key=k4)
        self.drop = eqx.nn.Dropout(p_drop)

    def causal_mask(self, n):
        return jnp.tril(jnp.ones((n, n), dtype=jnp.bool_))

    def __call__(self, x, inference=False, key=None):
        # x: (seq_len, emb_dim), one sequence
        q = jax.vmap(self.W_q)(x)
        k = jax.vmap(self.W_k)(x)
        v = jax.vmap(self.W_v)(x)
        q = einops.rearrange(q, "s (h d) -> h s d", h=self.n_heads)
        k = einops.rearrange(k, "s (h d) -> h s d", h=self.n_heads)
        v = einops.rearrange(v, "s (h d) -> h s d", h=self.n_heads)
        q = q / jnp.sqrt(k.shape[-1])
        scores = q @ einops.rearrange(k, "h s d -> h d s")  # (h, s, s)
        mask = self.causal_mask(x.shape[0])
        scores = jnp.where(mask, scores, -jnp.inf)
        weights = jax.nn.softmax(scores, axis=-1)
        weights = self.drop(weights, inference=inference, key=key)
        ctx = einops.rearrange(weights @ v, "h s d -> s (h d)")
        return jax.vmap(self.out_proj)(ctx)
