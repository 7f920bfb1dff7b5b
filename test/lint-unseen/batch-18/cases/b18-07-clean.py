# case: b18-07-clean
# modelled-on: dev2703/NanoJaX-Gpt https://github.com/dev2703/NanoJaX-Gpt/commit/33654a3af1f45bc100e284c63037448925c41034
# label: correct
# class: clean
# pattern: a small Flax GPT: the model builds a boolean keep mask with jnp.tril(jnp.ones((T, T), dtype=jnp.bool_)), an expand_mask helper adds the batch and head axes, and the attention function keeps logits where the mask is True with jnp.where(mask, logits, -1e9) after dividing by sqrt(d_k); the rotary embedding is applied to q and k per position
# why: correct: jnp.where(mask, logits, fill) keeps the first branch where the mask is True, so a tril keep mask (True on and below the diagonal) hides exactly the future; -1e9 is finite in float32 and bfloat16 and the diagonal is always visible, so no row is fully hidden; the scale is 1/sqrt(head_dim), applied once
# looks-like: ATT002, ATT007
# source: https://github.com/dev2703/NanoJaX-Gpt https://github.com/dev2703/NanoJaX-Gpt/commit/33654a3af1f45bc100e284c63037448925c41034 model.py
import flax.linen as nn
import jax.numpy as jnp


def attention(q, k, v, mask=None):
    d_k = q.shape[-1]
    logits = jnp.matmul(q, jnp.swapaxes(k, -2, -1)) / jnp.sqrt(d_k)
    if mask is not None:
        logits = jnp.where(mask, logits, -1e9)
    weights = nn.softmax(logits, axis=-1)
    return jnp.matmul(weights, v), weights


def expand_mask(mask):
    if mask.ndim == 3:
        mask = jnp.expand_dims(mask, 1)
    while mask.ndim < 4:
        mask = jnp.expand_dims(mask, 0)
    return mask


def rotate(x, positions, base=10000.0):
    d = x.shape[-1]
    inv = 1.0 / (base ** (jnp.arange(0, d, 2) / d))
    ang = positions[:, None] * inv[None, :]
    cos, sin = jnp.cos(ang), jnp.sin(ang)
    x1, x2 = x[..., ::2], x[..., 1::2]
    return jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).reshape(x.shape)


class SelfAttention(nn.Module):
    d_model: int
    num_heads: int
    dtype: jnp.dtype = jnp.float32

    @nn.compact
    def __call__(self, x, positions, mask=None):
        b, t, _ = x.shape
        hd = self.d_model // self.num_heads

        def heads(y):
            return y.reshape(b, t, self.num_heads, hd).transpose(0, 2, 1, 3)

        q = heads(nn.Dense(self.d_model, use_bias=False, dtype=self.dtype)(x))
        k = heads(nn.Dense(self.d_model, use_bias=False, dtype=self.dtype)(x))
        v = heads(nn.Dense(self.d_model, use_bias=False, dtype=self.dtype)(x))
        q, k = rotate(q, positions), rotate(k, positions)
        if mask is not None:
            mask = expand_mask(mask)
        out, _ = attention(q, k, v, mask=mask)
        out = out.transpose(0, 2, 1, 3).reshape(b, t, self.d_model)
        return nn.Dense(self.d_model, use_bias=False, dtype=self.dtype)(out)


class TinyGPT(nn.Module):
    vocab: int
    d_model: int = 256
    num_heads: int = 4
    layers: int = 4

    @nn.compact
    def __call__(self, tokens):
        t = tokens.shape[1]
        positions = jnp.arange(t, dtype=jnp.int32)
        x = nn.Embed(self.vocab, self.d_model)(tokens)
        mask = jnp.tril(jnp.ones((t, t), dtype=jnp.bool_))
        for _ in range(self.layers):
            x = x + SelfAttention(self.d_model, self.num_heads)(nn.LayerNorm()(x), positions, mask)
        return nn.Dense(self.vocab)(nn.LayerNorm()(x))
