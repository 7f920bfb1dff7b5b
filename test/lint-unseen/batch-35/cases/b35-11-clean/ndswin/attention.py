# case: b35-11-clean
# modelled-on: volodymyr-yelisieiev/ndswin-jax https://github.com/volodymyr-yelisieiev/ndswin-jax/commit/18db39b77c46798b46ebcd1208f5398e1c01d333
# label: correct
# class: clean
# pattern: an N-dimensional Swin Transformer in JAX / Flax linen (CIFAR-100 images, ModelNet40 voxels): window attention projects qkv with one Dense, pre-scales q by head_dim ** -0.5, computes einsum('bhqd,bhkd->bhqk'), adds a learned relative-position bias, and for shifted windows reshapes the scores to (batch, num_windows, heads, N, N) and adds an additive mask (0 inside one source window, -inf across windows, built from window ids rolled like the features), plus an additive -inf key-padding mask for the positions padded up to a multiple of the window; softmax over axis -1; a plain multi-head attention keeps scores with jnp.where(mask, attn, finfo(dtype).min)
# why: correct: the shifted-window mask is built from the same roll and the same window partition as the features, so it is 0 exactly where query and key came from one window before the shift (the diagonal always), and adding it (and the padding bias, also additive) removes the other pairs; every query keeps at least itself or a real key of its window, so no row is all -inf; q is scaled once by the per-head width and the einsum contracts d, so no key transpose is needed; axis -1 is the key axis; the windows of one image are consecutive, so the (batch, num_windows) reshape lines each window up with its mask; jnp.where keeps the scores where the boolean mask is True
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT006, ATT007
# source: https://github.com/volodymyr-yelisieiev/ndswin-jax https://github.com/volodymyr-yelisieiev/ndswin-jax/commit/18db39b77c46798b46ebcd1208f5398e1c01d333 src/ndswin/core/attention.py (with src/ndswin/core/window_ops.py)
from functools import reduce
from operator import mul
from typing import Optional, Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp

from .windows import padded_key_bias, roll_spatial, shifted_window_bias, to_windows


class GlobalAttention(nn.Module):
    num_heads: int
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, x, mask: Optional[jnp.ndarray] = None):
        b, n, c = x.shape
        hd = c // self.num_heads
        q, k, v = jnp.split(nn.Dense(3 * c, dtype=self.dtype)(x).reshape(b, n, 3 * self.num_heads, hd), 3, axis=2)
        q, k, v = (t.transpose(0, 2, 1, 3) for t in (q, k, v))
        attn = jnp.einsum("bhqd,bhkd->bhqk", q, k) * hd ** -0.5
        if mask is not None:  # True = may attend
            attn = jnp.where(mask, attn, jnp.finfo(self.dtype).min)
        attn = jax.nn.softmax(attn, axis=-1)
        return nn.Dense(c, dtype=self.dtype)(jnp.einsum("bhqk,bhkd->bhqd", attn, v).transpose(0, 2, 1, 3).reshape(b, n, c))


class WindowAttention(nn.Module):
    num_heads: int
    window: Tuple[int, ...]

    @nn.compact
    def __call__(self, x, mask=None):
        bw, n, c = x.shape
        hd = c // self.num_heads
        qkv = nn.Dense(3 * c, name="qkv")(x).reshape(bw, n, 3, self.num_heads, hd).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0] * hd ** -0.5, qkv[1], qkv[2]
        attn = jnp.einsum("bhqd,bhkd->bhqk", q, k)
        table = self.param("rel_bias", nn.initializers.truncated_normal(0.02), (n, n, self.num_heads))
        attn = attn + jnp.transpose(table, (2, 0, 1))[None]
        if mask is not None:  # (num_windows, 1, n, n), additive
            nw = mask.shape[0]
            attn = attn.reshape(bw // nw, nw, self.num_heads, n, n) + mask[None]
            attn = attn.reshape(bw, self.num_heads, n, n)
        attn = jax.nn.softmax(attn, axis=-1)
        out = jnp.einsum("bhqk,bhkd->bhqd", attn, v).transpose(0, 2, 1, 3).reshape(bw, n, c)
        return nn.Dense(c, name="proj")(out)


class ShiftedWindowBlock(nn.Module):
    num_heads: int
    window: Tuple[int, ...]
    shift: Tuple[int, ...]

    @nn.compact
    def __call__(self, x):  # (B, *spatial, C), spatial a multiple of the window after padding
        original = x.shape[1:-1]
        pads = [(0, 0)] + [(0, (-s) % w) for s, w in zip(original, self.window)] + [(0, 0)]
        x = jnp.pad(x, pads)
        padded = x.shape[1:-1]
        mask = None
        if any(s > 0 for s in self.shift):
            x = roll_spatial(x, tuple(-s for s in self.shift))
            mask = shifted_window_bias(padded, self.window, self.shift)
        pad_bias = padded_key_bias(original, padded, self.window, self.shift)
        if pad_bias is not None:
            mask = pad_bias if mask is None else mask + pad_bias
        area = reduce(mul, self.window, 1)
        windows = to_windows(nn.LayerNorm()(x), self.window).reshape(-1, area, x.shape[-1])
        out = WindowAttention(self.num_heads, self.window)(windows, mask=mask)
        return out  # merged back and un-rolled by the caller
