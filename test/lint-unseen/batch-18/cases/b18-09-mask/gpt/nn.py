# case: b18-09-mask
# modelled-on: nlsfnr/MiniGPT https://github.com/nlsfnr/MiniGPT/commit/d4ee1141d9f923c681c88c44d807a3b751fe7645
# label: correct
# class: fixed
# pattern: the same Haiku GPT after its mask fix: the training loss (train.py) builds jnp.tril(jnp.full((1, 1, L, L), True, dtype=bool)) and the attention keeps logits where the mask is True with jnp.where(mask, l_, -1e8), in float32, before a softmax over the last axis
# why: correct: the tril keep mask is True on and below the diagonal and jnp.where keeps the logit exactly there, -1e8 elsewhere; the softmax runs in float32 (full_precision), so -1e8 is finite even when the model computes in bfloat16, and the diagonal is always visible; q is scaled by 1/sqrt(key_size) before the rotation, which is linear, so the scale is applied once
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/nlsfnr/MiniGPT https://github.com/nlsfnr/MiniGPT/commit/d4ee1141d9f923c681c88c44d807a3b751fe7645 minigpt/nn.py, minigpt/training.py
from functools import partial
from typing import Callable, Optional

import haiku as hk
import jax
import jax.numpy as jnp
from einops import rearrange


def full_precision(fn: Callable) -> Callable:
    def inner(x):
        return fn(x.astype(jnp.float32)).astype(x.dtype)

    return inner


def rotary(x):  # B H S D
    dim, seq = x.shape[-1], x.shape[-2]
    inv = 10_000 ** (-jnp.arange(0, dim, 2, dtype=jnp.float32) / dim)
    grid = jnp.einsum("s,d->sd", jnp.arange(seq), inv)
    sin = jnp.repeat(jnp.sin(grid), 2, axis=-1)[None]
    cos = jnp.repeat(jnp.cos(grid), 2, axis=-1)[None]
    x1, x2 = x[..., ::2], x[..., 1::2]
    swapped = rearrange(jnp.stack([-x2, x1], axis=-1), "... d two -> ... (d two)")
    return x * cos + swapped * sin


class MultiHeadAttention(hk.Module):
    def __init__(self, num_heads: int, name: str):
        super().__init__(name=name)
        self.num_heads = num_heads

    def __call__(self, x, mask: Optional[jnp.ndarray] = None):
        model_dim = x.shape[-1]
        key_size = model_dim // self.num_heads
        proj = partial(hk.Linear, with_bias=False)
        q = proj(model_dim, name="q_proj")(x) / key_size**0.5
        q = rotary(rearrange(q, "b l (h k) -> b h l k", h=self.num_heads))
        k = rotary(rearrange(proj(model_dim, name="k_proj")(x), "b l (h k) -> b h l k", h=self.num_heads))
        v = rearrange(proj(model_dim, name="v_proj")(x), "b l (h v) -> b h l v", h=self.num_heads)
        logits = jnp.einsum("bhik,bhjk->bhij", q, k)

        def to_weights(l_):
            if mask is not None:
                l_ = hk.remat(jnp.where)(mask, l_, -1e8)
            return jax.nn.softmax(l_, axis=-1)  # B H L L

        weights = full_precision(to_weights)(logits)
        y = rearrange(jnp.einsum("bhij,bhjv->bhiv", weights, v), "b h l v -> b l (h v)")
        return proj(model_dim, name="o_proj")(y)


class Model(hk.Module):
    def __init__(self, vocab: int, model_dim: int, num_heads: int, num_layers: int, name=None):
        super().__init__(name=name)
        self.vocab, self.model_dim = vocab, model_dim
        self.num_heads, self.num_layers = num_heads, num_layers

    def __call__(self, indices, is_training: bool, mask=None):
        embed = hk.Embed(self.vocab, self.model_dim, name="embedding")
        h = embed(indices)
        for i in range(self.num_layers):
            ln = hk.LayerNorm(-1, True, False, name=f"ln_{i}")
            h = h + MultiHeadAttention(self.num_heads, name=f"mha_{i}")(ln(h), mask)
        h = hk.LayerNorm(-1, True, False, name="out_ln")(h)
        return jnp.einsum("bsm,vm->bsv", h, embed.embeddings)
