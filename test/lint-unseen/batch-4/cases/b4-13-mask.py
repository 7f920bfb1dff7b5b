# case: b4-13-mask
# modelled-on: diegoPasini/transformer-jax https://github.com/diegoPasini/transformer-jax/commit/44bdf852d6e4ef682415e7023355f80f04d35ce4
# label: buggy
# class: real-bug
# pattern: a Flax decoder-only language model: a fused qkv Dense is split per head, the scores are divided by sqrt(d_k), and the causal mask is made in place on the scores: jnp.triu zeroes the entries below the diagonal and jnp.where then turns every zero into -inf before a softmax over the last axis
# why: triu(k=0) keeps the diagonal and everything above it (the future) and zeroes the past, so the where fills the past with -inf and each token attends only to itself and the tokens after it, the opposite of the causal mask the next-token model needs; commit 44bdf85 builds the mask as tril(ones) and fills `mask == 0` with -1e9 (it kept the triu line, a second defect left out of this case)
# source: https://github.com/diegoPasini/transformer-jax https://github.com/diegoPasini/transformer-jax/commit/44bdf852d6e4ef682415e7023355f80f04d35ce4 transformer.py
import flax.linen as nn
import jax
import jax.numpy as jnp


def causal_attention(q, k, v):
    # q, k, v: (batch, heads, seq, d_k)
    scores = q @ jnp.permute_dims(k, axes=(0, 1, 3, 2))  # (batch, heads, seq, seq)
    d_k = k.shape[-1]
    scores = scores / jnp.sqrt(d_k)
    scores = jnp.triu(scores, k=0)
    scores = jnp.where(scores == 0, -jnp.inf, scores)  # expect: ATT002
    weights = jax.nn.softmax(scores, axis=-1)
    return weights @ v


class HeadsAttention(nn.Module):
    d_model: int
    d_k: int
    num_heads: int

    def setup(self):
        self.wqkv = nn.Dense(features=self.d_model * self.d_k * 3, use_bias=False)

    def __call__(self, x):
        b, n, _ = x.shape
        qkv = self.wqkv(x).reshape(b, n, self.num_heads, -1).transpose(0, 2, 1, 3)
        q, k, v = jnp.array_split(qkv, 3, axis=-1)
        out = causal_attention(q, k, v)
        return out.transpose(0, 2, 1, 3).reshape(b, n, self.d_model * self.d_k)


class Block(nn.Module):
    d_model: int
    d_k: int
    heads: int
    dropout_rate: float = 0.1

    @nn.compact
    def __call__(self, x, deterministic: bool = True):
        h = nn.Dense(self.d_model)(HeadsAttention(self.d_model, self.d_k, self.heads)(x))
        x = nn.LayerNorm()(x + nn.Dropout(self.dropout_rate)(h, deterministic=deterministic))
        h = nn.Dense(self.d_model)(nn.relu(nn.Dense(self.d_model)(x)))
        return nn.LayerNorm()(x + nn.Dropout(self.dropout_rate)(h, deterministic=deterministic))
