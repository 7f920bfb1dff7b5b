# case: clean-jax-nnx-qknorm-dot-product-attention
# modelled-on: charliezchen/scaling-matrix-preconditioning https://github.com/charliezchen/scaling-matrix-preconditioning/issues/2
# label: correct
# class: clean
# pattern: Flax NNX attention: (B, S, H, D/H) queries and keys RMS-normalised per head, rotary embeddings, and jax.nn.dot_product_attention bound with functools.partial(is_causal=True) in __init__; a self.scale of (1/head_dim)**0.5 is computed but never passed
# why: jax.nn.dot_product_attention takes (B, S, H, D) inputs and scales by 1/sqrt(head_dim) by default, which is the value self.scale holds, so leaving it out changes nothing; there is no cache, so is_causal aligns queries and keys of the same length; the issue asked about the paper's 1/d and the authors confirmed the code's 1/sqrt(d) is what they ran (a constant factor for a fixed head size)
# looks-like: ATT004, ATT008
# source: https://github.com/charliezchen/scaling-matrix-preconditioning https://github.com/charliezchen/scaling-matrix-preconditioning/commit/5a02d4f3a3532cf9b77ea6435cd1d5db278abf54 model.py
import functools

import jax
import jax.numpy as jnp
from flax import nnx


def apply_rope(x, position, max_wavelength=10_000):
    half = x.shape[-1] // 2
    freq = 1.0 / (max_wavelength ** (jnp.arange(half) / half))
    angles = position[..., None, None] * freq  # [B, S, 1, D/2]
    sin, cos = jnp.sin(angles), jnp.cos(angles)
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


class Attention(nnx.Module):
    """Multi-headed attention with D x D projection matrices."""

    def __init__(self, D: int, dh: int, rope: bool, rngs: nnx.Rngs):
        self.num_heads = D // dh
        self.head_dim = dh
        self.scale = (1 / self.head_dim) ** 0.5
        self.query_proj = nnx.Linear(D, D, use_bias=False, rngs=rngs)
        self.key_proj = nnx.Linear(D, D, use_bias=False, rngs=rngs)
        self.value_proj = nnx.Linear(D, D, use_bias=False, rngs=rngs)
        self.output_proj = nnx.Linear(D, D, use_bias=False, rngs=rngs)

        # query-key normalisation
        self.q_norm = nnx.RMSNorm(self.head_dim, use_scale=False, rngs=rngs)
        self.k_norm = nnx.RMSNorm(self.head_dim, use_scale=False, rngs=rngs)

        self.attention = functools.partial(jax.nn.dot_product_attention, is_causal=True)
        self.rope = rope

    def __call__(self, x):  # [B, S, D]
        B, S, D = x.shape
        H = self.num_heads

        q = self.query_proj(x).reshape(B, S, H, -1)  # [B, S, H, D/H]
        k = self.key_proj(x).reshape(B, S, H, -1)  # [B, S, H, D/H]
        v = self.value_proj(x).reshape(B, S, H, -1)  # [B, S, H, D/H]

        q = self.q_norm(q)
        k = self.k_norm(k)

        if self.rope:
            position = jnp.arange(S)
            q = apply_rope(q, position[None])
            k = apply_rope(k, position[None])

        out = self.attention(q, k, v)  # [B, S, H, D/H]
        return self.output_proj(out.reshape(B, S, -1))
