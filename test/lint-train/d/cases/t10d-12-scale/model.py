# case: t10d-12-scale
# modelled-on: profLepton/jax-transformer https://github.com/profLepton/jax-transformer/commit/8bd682d8884333a789c9320c0b86037d1fabc7a5
# label: buggy
# class: real-bug
# pattern: a from-scratch JAX language model (no Flax): one fused Linear projects (B, T, C) to 3C, reshaped to (B, T, heads, 3C / heads), moved to (B, heads, T, .) and split into k, q, v of width C / heads; the scores are jnp.matmul(k, q.transpose(0, 1, 3, 2)) / jnp.power(C, 0.5) with C unpacked from the input shape, a causal where(mask == 0, -inf) from a partial-bound mask function, a hand-written softmax over axis=3 and a product with v; sizes come from a config dataclass in another module (width 16, 4 heads)
# why: buggy: each head's keys are C / heads = 4 wide, and scaled attention divides by the square root of that width; C is the model width, so the scores are divided by sqrt(16) = 4 instead of sqrt(4) = 2; the k @ q^T order with the softmax over axis 3 is harmless here (q and k are two learned projections of the same input, so swapping their names gives the same model); the real mask function built a mask of ones (the causal mask was still to be written), written here as a lower triangle so that the scale is the one defect; no fix was found
# source: https://github.com/profLepton/jax-transformer https://github.com/profLepton/jax-transformer/commit/8bd682d8884333a789c9320c0b86037d1fabc7a5 model.py
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit

from config import Config


def softmax(x, axis=-1):
    maxes = jnp.max(x, axis=axis, keepdims=True)
    xp = jnp.exp(x - maxes)
    return xp / jnp.sum(xp, axis=axis, keepdims=True)


class Linear:
    def __init__(self, n_in, n_out, key):
        self.weights = jax.nn.initializers.glorot_normal()(key, (n_in, n_out), jnp.float32)

    def __call__(self, x):
        return jnp.dot(x, self.weights)


def causal_mask_fn(att):
    B, H, T, _ = att.shape
    mask = jnp.tril(jnp.ones((T, T)))[None, None]
    return jnp.where(mask == 0, -jnp.inf, att)


def no_mask(att):
    return att


def scaled_attention(x, kqv_proj, num_heads, mask_fn):
    B, T, C = x.shape
    kqv = kqv_proj(x).reshape(B, T, num_heads, -1).transpose(0, 2, 1, 3)
    k, q, v = jnp.split(kqv, 3, axis=-1)  # (B, H, T, C // H) each
    att = jnp.matmul(k, q.transpose(0, 1, 3, 2)) / jnp.power(C, 0.5)  # expect: ATT004
    att = mask_fn(att)
    att = softmax(att, axis=3)
    out = jnp.matmul(att, v).transpose(0, 2, 1, 3)
    return out.reshape(B, T, C)


class MultiHeadSelfAttention:
    def __init__(self, config: Config, key):
        self.kqv_proj = Linear(config.hidden_size, 3 * config.hidden_size, key)
        fn = causal_mask_fn if config.causal else no_mask
        self.forward = jit(partial(scaled_attention, kqv_proj=self.kqv_proj, num_heads=config.num_heads, mask_fn=fn))

    def __call__(self, x):
        return self.forward(x)


if __name__ == "__main__":
    cfg = Config()
    layer = MultiHeadSelfAttention(cfg, jax.random.key(0))
    print(layer(jnp.ones((cfg.batch_size, cfg.context_length, cfg.hidden_size))).shape)
