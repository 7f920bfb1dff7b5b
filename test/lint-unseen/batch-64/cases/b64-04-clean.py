# case: b64-04-clean
# modelled-on: AnuAnu22/1Bmodel https://github.com/AnuAnu22/1Bmodel/commit/43f7752d0145d790bed5a566f33f56bb6e77c80f
# label: correct
# class: clean
# pattern: Flax "heavily compressed attention" of a small JAX language model (multi-query: one shared key/value head): the tokens are pooled into blocks of `rate` tokens by a softmax over the positions inside each block, every query attends to the compressed blocks that are entirely in its past (a [seq, blocks] boolean keep mask used in `jnp.where(mask, scores, NEG_INF)`) and to a causal sliding window of its own recent tokens, and one softmax runs over the concatenation of the block scores and the window scores before the weights are split again
# why: correct: the keep mask is True where the block ends at or before the query, so `jnp.where` keeps those scores and fills the rest with the float32 minimum (the model computes in float32); the joint softmax is over the last axis, the concatenated key axis of global blocks and local window, so the weights of both kinds of keys sum to one together; the sliding window is causal by construction (left padding, the newest entry is the query's own token), so it needs no mask; the window always holds the query's own token, so no row is empty; scores are scaled by head_dim ** -0.5; the in-block pooling softmax over axis -1 normalises over the `rate` positions of a block, as intended
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/AnuAnu22/1Bmodel https://github.com/AnuAnu22/1Bmodel/commit/43f7752d0145d790bed5a566f33f56bb6e77c80f model/attention.py
import flax.linen as nn
import jax
import jax.numpy as jnp

NEG_INF = jnp.finfo(jnp.float32).min


def sliding_window(kv, window):
    """(b, s, d) -> (b, s, window, d): the `window` newest entries up to and including each position."""
    b, s, d = kv.shape
    padded = jnp.pad(kv, ((0, 0), (window - 1, 0), (0, 0)))
    idx = jnp.arange(s)[None, :] + jnp.arange(window)[:, None]  # (window, s)
    return padded[:, idx, :].transpose(0, 2, 1, 3)


def past_block_mask(seq, n_blocks, rate):
    """(seq, n_blocks) keep mask: True where block j ends at or before position t."""
    block_end = (jnp.arange(n_blocks) + 1) * rate
    return block_end[None, :] <= jnp.arange(seq)[:, None] + 1


class CompressedAttention(nn.Module):
    n_heads: int
    head_dim: int
    hidden: int
    rate: int = 16
    window: int = 64

    @nn.compact
    def __call__(self, x):
        b, s, _ = x.shape
        q = nn.Dense(self.n_heads * self.head_dim, use_bias=False)(x).reshape(b, s, self.n_heads, self.head_dim)

        # compress: softmax-weighted pooling of the tokens inside each block of `rate`
        pad = (self.rate - s % self.rate) % self.rate
        c = nn.Dense(self.head_dim, use_bias=False)(x)
        z = nn.Dense(1, use_bias=False)(c).squeeze(-1)
        c = jnp.pad(c, ((0, 0), (0, pad), (0, 0)))
        z = jnp.pad(z, ((0, 0), (0, pad)))
        nb = (s + pad) // self.rate
        pool = jax.nn.softmax(z.reshape(b, nb, self.rate), axis=-1)
        blocks = jnp.einsum("bnr,bnrd->bnd", pool, c.reshape(b, nb, self.rate, self.head_dim))
        n_full = s // self.rate
        blocks = blocks[:, :n_full]  # only complete blocks can be in anyone's past

        local = sliding_window(nn.Dense(self.head_dim, use_bias=False)(x), self.window)

        scale = self.head_dim**-0.5
        g = jnp.einsum("bsnd,bkd->bsnk", q, blocks) * scale
        keep = past_block_mask(s, n_full, self.rate)
        g = jnp.where(keep[None, :, None, :], g, NEG_INF)
        l = jnp.einsum("bsnd,bswd->bsnw", q, local) * scale

        w = jax.nn.softmax(jnp.concatenate([g, l], axis=-1), axis=-1)
        w_g, w_l = w[..., :n_full], w[..., n_full:]
        out = jnp.einsum("bsnk,bkd->bsnd", w_g, blocks) + jnp.einsum("bsnw,bswd->bsnd", w_l, local)
        return nn.Dense(self.hidden, use_bias=False)(out.reshape(b, s, -1))
