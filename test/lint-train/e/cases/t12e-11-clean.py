# case: t12e-11-clean
# modelled-on: michael-diggin/jax-transformer https://github.com/michael-diggin/jax-transformer/commit/e81f98a3e2937f44915abf582addf62b3262fd24
# label: correct
# class: clean
# pattern: a GPT written in plain JAX with hand-made pytree modules: the attention module reshapes projections to (batch, seq, heads, -1) and transposes them to (batch, heads, seq, d_k), passes d_model // heads as d_k to a scaled dot-product method that divides q @ swapaxes(k, -2, -1) by jnp.sqrt(d_k), keeps scores with jnp.where(self.mask, attn, -9e15) where the mask is a float tril of ones (1, 1, T, T) built by a classmethod and stored as auxiliary data, and softmaxes over the last axis
# why: correct: the tril of ones is nonzero (True) on and below the diagonal, so the where keeps past and current scores and writes -9e15 (finite in float32) into the future; d_k is the per-head width, matching the -1 in the reshape; swapaxes(-2, -1) transposes the 4-D keys; what a naive linter could misread: ATT002 (a mask used as the keep condition of where), ATT007 (a -9e15 fill), ATT004 (a scale passed in as an argument), ATT005 (swapaxes)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/michael-diggin/jax-transformer https://github.com/michael-diggin/jax-transformer/commit/e81f98a3e2937f44915abf582addf62b3262fd24 modules.py
import jax
import jax.numpy as jnp


class Dense:
    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, x):
        return x @ self.w + self.b


class CausalSelfAttention:
    def __init__(self, W_q: Dense, W_k: Dense, W_v: Dense, W_o: Dense, heads: int, mask: jax.Array):
        self.W_q, self.W_k, self.W_v, self.W_o = W_q, W_k, W_v, W_o
        self.heads = heads
        self.mask = mask

    def __call__(self, x: jax.Array) -> jax.Array:
        batch, seq_len, d_model = jnp.shape(x)
        q = self.W_q(x).reshape(batch, seq_len, self.heads, -1).transpose(0, 2, 1, 3)
        k = self.W_k(x).reshape(batch, seq_len, self.heads, -1).transpose(0, 2, 1, 3)
        v = self.W_v(x).reshape(batch, seq_len, self.heads, -1).transpose(0, 2, 1, 3)
        out = self.scaled_dot_product(q, k, v, d_model // self.heads)
        out = out.transpose(0, 2, 1, 3).reshape(batch, seq_len, d_model)
        return self.W_o(out)

    def scaled_dot_product(self, q, k, v, d_k):
        attn = jnp.matmul(q, jnp.swapaxes(k, -2, -1)) / jnp.sqrt(d_k)
        attn = jnp.where(self.mask, attn, -9e15)
        attn = jax.nn.softmax(attn, axis=-1)
        return jnp.matmul(attn, v)

    @classmethod
    def training_mask(cls, seq_len: int) -> jax.Array:
        """(1, 1, seq_len, seq_len) lower-triangular mask."""
        return jnp.expand_dims(jnp.tril(jnp.ones((seq_len, seq_len))), (0, 1))
