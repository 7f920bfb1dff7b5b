# case: b27-02-clean
# modelled-on: lucidrains/flash-attention-jax https://github.com/lucidrains/flash-attention-jax/commit/d73dcdd6cb4b4f8d786922e2ec6826036dae896a
# label: correct
# class: clean
# pattern: the plain JAX reference attentions a flash-attention package tests its chunked kernels against: queries pre-multiplied by 1 / jnp.sqrt(dim), einsum '... i d, ... j d -> ... i j' scores, a key-padding mask rearranged to (b, 1, 1, j) and applied as jnp.where(key_mask, sim, MASK_VALUE); a causal variant that builds jnp.triu(ones((q_len, k_len)), k_len - q_len + 1) and applies jnp.where(causal_mask, MASK_VALUE, sim) (the other way round); every softmax over axis=-1 (the package's cosine-similarity variant is left out: its l2norm divides by the norm of the whole tensor, not of each vector)
# why: correct: key_mask is True on real keys and is the condition that keeps sim, while the triangle is True above the shifted diagonal (future keys) and is the condition that picks MASK_VALUE, so both masks remove what they should; the offset k_len - q_len + 1 aligns the last query with the last key when queries are a suffix; the scale is folded into q once; -1e10 is a float32 mask value and nothing here is cast to half precision
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/lucidrains/flash-attention-jax https://github.com/lucidrains/flash-attention-jax/commit/d73dcdd6cb4b4f8d786922e2ec6826036dae896a flash_attention_jax/attention.py
import jax
from jax import nn, jit
from jax import numpy as jnp
from jax.numpy import einsum

from einops import rearrange

NEG_BIG = -1e10


@jit
def reference_attention(q, k, v, key_mask):
    dim = q.shape[-1]
    scale = 1 / jnp.sqrt(dim)

    q = q * scale
    sim = einsum('... i d, ... j d -> ... i j', q, k)

    key_mask = rearrange(key_mask, 'b j -> b 1 1 j')
    sim = jnp.where(key_mask, sim, NEG_BIG)

    attn = nn.softmax(sim, axis=-1)
    return attn @ v


@jit
def reference_causal_attention(q, k, v):
    q_len, dim, k_len = *q.shape[-2:], k.shape[-2]
    scale = 1 / jnp.sqrt(dim)

    q = q * scale
    sim = einsum('... i d, ... j d -> ... i j', q, k)

    future = jnp.triu(jnp.ones((q_len, k_len)), k_len - q_len + 1)
    sim = jnp.where(future, NEG_BIG, sim)

    attn = nn.softmax(sim, axis=-1)
    return einsum('... i j, ... j d -> ... i d', attn, v)


def value_and_grad_difference(fn, ref_fn, q, k, v, key_mask):
    out = fn(q, k, v, key_mask)
    ref = ref_fn(q, k, v, key_mask)
    return jnp.abs(out - ref).max()
