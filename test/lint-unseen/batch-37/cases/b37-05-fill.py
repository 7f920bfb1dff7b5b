# case: b37-05-fill
# modelled-on: lucidrains/PaLM-jax https://github.com/lucidrains/PaLM-jax/commit/a0845e94a3234dcb2b8c7c09ba79a8a1554d64b5
# label: buggy
# class: real-bug
# pattern: PaLM in JAX with equinox modules: multi-query attention (many query heads, one shared key/value head), queries pre-scaled by dim_head ** -0.5, rotary embeddings on queries and keys, einsum '... h i d, ... j d -> ... h i j'; the model builds causal_mask = np.tril(np.ones((n, n))) (1 where a query may look) and the layer applies it with np.where(causal_mask, sim, self.mask_value) before nn.softmax over the last axis; mask_value defaults to 1e-10
# why: buggy: 1e-10 is a positive number next to zero, not a large negative one, so the future positions keep a logit of about 0 and still receive softmax weight, and the causal language model sees future tokens; the author's next commit (d9df9a2, "fix causal mask value") changes the default to -1e10
# source: https://github.com/lucidrains/PaLM-jax https://github.com/lucidrains/PaLM-jax/commit/a0845e94a3234dcb2b8c7c09ba79a8a1554d64b5 palm_jax/palm.py
from typing import List

from jax import random, nn, lax, numpy as jnp
from jax.numpy import einsum
from equinox import Module, static_field
from einops import rearrange, repeat


class Norm(Module):
    gamma: jnp.ndarray
    eps: float = static_field()

    def __init__(self, dim, eps=1e-5):
        self.gamma = jnp.ones((dim,))
        self.eps = eps

    def __call__(self, x):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x), axis=-1, keepdims=True) - jnp.square(mean)
        return lax.rsqrt(var + self.eps) * (x - mean) * self.gamma


def rotary_tables(inv_freq, n):
    angles = einsum('i , j -> i j', jnp.arange(n), inv_freq)
    angles = repeat(angles, '... d -> ... (d r)', r=2)
    return jnp.sin(angles), jnp.cos(angles)


def rotate_pairs(x):
    x = rearrange(x, '... (d r) -> ... d r', r=2)
    x = jnp.stack((-x[..., 1], x[..., 0]), axis=-1)
    return rearrange(x, '... d r -> ... (d r)')


def with_rotary(x, tables):
    sin, cos = tables
    return x * cos + rotate_pairs(x) * sin


class MultiQueryAttention(Module):
    norm: Module
    w_q: jnp.ndarray
    w_k: jnp.ndarray
    w_v: jnp.ndarray
    w_out: jnp.ndarray
    heads: int = static_field()
    scale: float = static_field()
    mask_value: float = static_field()

    def __init__(self, dim, dim_head, heads, key, mask_value=1e-10):
        self.norm = Norm(dim)
        self.w_q = random.normal(key, (dim, dim_head * heads))
        self.w_k = random.normal(key, (dim, dim_head))
        self.w_v = random.normal(key, (dim, dim_head))
        self.w_out = random.normal(key, (dim_head * heads, dim))
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.mask_value = mask_value

    def __call__(self, x, *, rotary, causal_mask):
        x = self.norm(x)
        q, k, v = x @ self.w_q, x @ self.w_k, x @ self.w_v

        q = rearrange(q, '... n (h d) -> ... h n d', h=self.heads)
        q = q * self.scale
        q, k = with_rotary(q, rotary), with_rotary(k, rotary)

        sim = einsum('... h i d, ... j d -> ... h i j', q, k)
        sim = jnp.where(causal_mask, sim, self.mask_value)  # expect: ATT007
        attn = nn.softmax(sim, axis=-1)

        out = einsum('... h i j, ... j d -> ... h i d', attn, v)
        out = rearrange(out, '... h n d -> ... n (h d)')
        return out @ self.w_out


class CausalLM(Module):
    embedding: jnp.ndarray
    blocks: List[Module]
    final_norm: Module
    inv_freq: jnp.ndarray

    def __init__(self, *, num_tokens, dim, dim_head, depth, heads, key):
        self.embedding = random.normal(key, (num_tokens, dim)) * 0.02
        self.inv_freq = 1.0 / (10000 ** (jnp.arange(0, dim_head, 2) / dim_head))
        self.blocks = [MultiQueryAttention(dim, dim_head, heads, key) for _ in range(depth)]
        self.final_norm = Norm(dim)

    def __call__(self, ids):
        n = ids.shape[-1]
        x = self.embedding[ids]
        rotary = rotary_tables(self.inv_freq, n)
        causal_mask = jnp.tril(jnp.ones((n, n)))
        for block in self.blocks:
            x = block(x, rotary=rotary, causal_mask=causal_mask) + x
        return self.final_norm(x) @ self.embedding.T
