# case: b63-07-clean
# modelled-on: PrincetonLIPS/crystal-fourier-transformer https://github.com/PrincetonLIPS/crystal-fourier-transformer/commit/b690a550670367837f45e56f32a1c2d16eb181b1
# label: correct
# class: clean
# pattern: a Flax (linen) pre-LayerNorm self-attention block for padded sets of atoms: a (batch, seq) boolean `mask` that is True on real atoms is broadcast as a key mask (batch, 1, 1, seq) into `jnp.where(key_mask, logits, -inf)`, rows with no finite logit are reset to 0 before the softmax over the last axis, and after the softmax the weights are multiplied by the query mask (batch, 1, seq, 1); the logits are an einsum of (batch, heads, seq, d_head) queries and keys times d_head ** -0.5; the block zeroes padded positions again at its end
# why: correct: `where(key_mask, logits, -inf)` keeps real keys and hides padding (True = real); the guard keeps fully padded query rows from turning into NaN; multiplying by the *query* mask after the softmax only zeroes the outputs of padded queries and never renormalises a real row, so it is not a key mask applied after the softmax; the scale is the per-head width d_head ** -0.5, with d_head = d_model // heads
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/PrincetonLIPS/crystal-fourier-transformer https://github.com/PrincetonLIPS/crystal-fourier-transformer/commit/b690a550670367837f45e56f32a1c2d16eb181b1 layers/attention.py
import flax.linen as nn
import jax.numpy as jnp


class SetSelfAttention(nn.Module):
    width: int
    heads: int
    dropout: float = 0.0

    @nn.compact
    def __call__(self, x, mask=None, deterministic=True):
        d_head = self.width // self.heads
        q = nn.Dense(self.width, use_bias=False, name="wq")(x)
        k = nn.Dense(self.width, use_bias=False, name="wk")(x)
        v = nn.Dense(self.width, use_bias=False, name="wv")(x)

        def heads_first(t):
            b, n, _ = t.shape
            return t.reshape(b, n, self.heads, d_head).transpose((0, 2, 1, 3))

        q, k, v = heads_first(q), heads_first(k), heads_first(v)
        logits = jnp.einsum("bhid,bhjd->bhij", q, k) * (d_head ** -0.5)

        row_keep = None
        if mask is not None:
            col_keep = mask[:, None, None, :]
            row_keep = mask[:, None, :, None]
            logits = jnp.where(col_keep, logits, -jnp.inf)
            any_finite = jnp.any(jnp.isfinite(logits), axis=-1, keepdims=True)
            logits = jnp.where(any_finite, logits, 0.0)

        weights = nn.softmax(logits, axis=-1)
        if row_keep is not None:
            weights = weights * row_keep
        weights = nn.Dropout(self.dropout)(weights, deterministic=deterministic)

        out = jnp.einsum("bhij,bhjd->bhid", weights, v)
        b, _, n, _ = out.shape
        out = out.transpose((0, 2, 1, 3)).reshape(b, n, self.width)
        return nn.Dense(self.width, use_bias=False, name="wo")(out)


class SetBlock(nn.Module):
    width: int
    heads: int
    ff_width: int

    @nn.compact
    def __call__(self, x, mask=None, deterministic=True):
        h = nn.LayerNorm(epsilon=1e-6)(x)
        x = x + SetSelfAttention(self.width, self.heads)(h, mask=mask, deterministic=deterministic)
        h = nn.LayerNorm(epsilon=1e-6)(x)
        h = nn.Dense(self.width)(nn.silu(nn.Dense(self.ff_width)(h)))
        x = x + h
        if mask is not None:
            x = x * mask[:, :, None]
        return x
