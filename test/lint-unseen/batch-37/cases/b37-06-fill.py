# case: b37-06-fill
# modelled-on: lucidrains/PaLM-jax https://github.com/lucidrains/PaLM-jax/commit/d9df9a2f2b9e3db5cb7c7b9ce4aafa8eda459b0c
# label: correct
# class: fixed
# pattern: the same PaLM multi-query attention in JAX/equinox after the fix: queries split into heads and pre-scaled by dim_head ** -0.5, one shared key/value head, rotary embeddings, einsum similarity, np.where(causal_mask, sim, self.mask_value) with mask_value = -1e10 and causal_mask = tril(ones((n, n))) built by the model, then nn.softmax over the keys; a SwiGLU feedforward follows each attention layer (layer norms cut)
# why: correct: where keeps the scores where the lower-triangular mask is 1 (a query and its past) and writes -1e10 elsewhere, which the float32 logits hold and the softmax sends to zero; the diagonal is never masked, so no row is empty; the scale is applied once, to the queries, with the per-head width
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/lucidrains/PaLM-jax https://github.com/lucidrains/PaLM-jax/commit/d9df9a2f2b9e3db5cb7c7b9ce4aafa8eda459b0c palm_jax/palm.py
from typing import List

from jax import random, nn, numpy as jnp
from jax.numpy import einsum
from equinox import Module, static_field
from einops import rearrange, repeat


def sincos(inv_freq, length):
    t = einsum('i , j -> i j', jnp.arange(length), inv_freq)
    t = repeat(t, '... d -> ... (d r)', r=2)
    return jnp.sin(t), jnp.cos(t)


def rotate(x, table):
    sin, cos = table
    pairs = rearrange(x, '... (d r) -> ... d r', r=2)
    turned = rearrange(jnp.stack((-pairs[..., 1], pairs[..., 0]), axis=-1), '... d r -> ... (d r)')
    return x * cos + turned * sin


class SwiGLU(Module):
    w_in: jnp.ndarray
    w_gate: jnp.ndarray
    w_out: jnp.ndarray

    def __init__(self, dim, key, mult=4):
        self.w_in = random.normal(key, (dim, dim * mult))
        self.w_gate = random.normal(key, (dim, dim * mult))
        self.w_out = random.normal(key, (dim * mult, dim))

    def __call__(self, x):
        gate = x @ self.w_gate
        return ((x @ self.w_in) * (gate * nn.sigmoid(gate))) @ self.w_out


class SharedKVAttention(Module):
    to_q: jnp.ndarray
    to_k: jnp.ndarray
    to_v: jnp.ndarray
    to_out: jnp.ndarray
    heads: int = static_field()
    scale: float = static_field()
    mask_value: float = static_field()

    def __init__(self, dim, dim_head, heads, key, mask_value=-1e10):
        self.to_q = random.normal(key, (dim, heads * dim_head))
        self.to_k = random.normal(key, (dim, dim_head))
        self.to_v = random.normal(key, (dim, dim_head))
        self.to_out = random.normal(key, (heads * dim_head, dim))
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.mask_value = mask_value

    def __call__(self, x, *, table, causal_mask):
        q = rearrange(x @ self.to_q, '... n (h d) -> ... h n d', h=self.heads) * self.scale
        k = x @ self.to_k
        v = x @ self.to_v
        q = rotate(q, table)
        k = rotate(k, table)

        logits = einsum('... h i d, ... j d -> ... h i j', q, k)
        logits = jnp.where(causal_mask, logits, self.mask_value)
        probs = nn.softmax(logits, axis=-1)

        mixed = einsum('... h i j, ... j d -> ... h i d', probs, v)
        return rearrange(mixed, '... h n d -> ... n (h d)') @ self.to_out


class DecoderLM(Module):
    tokens: jnp.ndarray
    layers: List[List[Module]]
    inv_freq: jnp.ndarray

    def __init__(self, *, num_tokens, dim, dim_head, depth, heads, key):
        self.tokens = random.normal(key, (num_tokens, dim)) * 0.02
        self.inv_freq = 1.0 / (10000 ** (jnp.arange(0, dim_head, 2) / dim_head))
        self.layers = [[SharedKVAttention(dim, dim_head, heads, key), SwiGLU(dim, key)] for _ in range(depth)]

    def __call__(self, ids):
        n = ids.shape[-1]
        h = self.tokens[ids]
        table = sincos(self.inv_freq, n)
        causal_mask = jnp.tril(jnp.ones((n, n)))
        for attn, ff in self.layers:
            h = attn(h, table=table, causal_mask=causal_mask) + h
            h = ff(h) + h
        return h @ self.tokens.T
