# case: b41-02-postmask
# modelled-on: bhavnicksm/vanilla-transformer-jax https://github.com/bhavnicksm/vanilla-transformer-jax/commit/3f304a9f0e6435892cd3e6015b77a2748110ade2
# label: buggy
# class: real-bug
# pattern: Flax (linen) "Attention Is All You Need" layers with one Dense projection per head in a Python loop: unmasked self-attention and cross-attention compute softmax(q k^T / sqrt(d_k)) v over the last axis; the decoder's masked self-attention takes a 0/1 target mask of shape (target_len,) and multiplies the softmax output by it with an einsum, then multiplies by the values
# why: buggy: the package presents itself as the paper's Transformer, whose decoder masks illegal positions by setting their scores to -inf before the softmax; here the 0/1 target mask is multiplied into the probabilities after the softmax (the einsum scales each query row by its mask entry), so no key is ever excluded: padded and future target positions keep their full weight in every row's softmax, and masked rows are merely zeroed afterwards; no correcting commit exists (a real bug without a fixed form)
# source: https://github.com/bhavnicksm/vanilla-transformer-jax https://github.com/bhavnicksm/vanilla-transformer-jax/commit/3f304a9f0e6435892cd3e6015b77a2748110ade2 src/vtransformer/layers.py
import jax.numpy as jnp
import flax.linen as nn


def attend(queries, keys, values, d_k):
    logits = jnp.einsum("...qd,...kd->...qk", queries, keys) / jnp.sqrt(d_k)
    return jnp.matmul(nn.softmax(logits, axis=-1), values)


class HeadwiseSelfAttention(nn.Module):
    heads: int = 8
    d_k: int = 64
    d_v: int = 64
    out_dim: int = 512

    @nn.compact
    def __call__(self, x):
        outputs = []
        for h in range(self.heads):
            q = nn.Dense(self.d_k, name=f"q_{h}")(x)
            k = nn.Dense(self.d_k, name=f"k_{h}")(x)
            v = nn.Dense(self.d_v, name=f"v_{h}")(x)
            outputs.append(attend(q, k, v, self.d_k))
        return nn.Dense(self.out_dim, name="merge")(jnp.concatenate(outputs, axis=-1))


class HeadwiseMaskedSelfAttention(nn.Module):
    heads: int = 8
    d_k: int = 64
    d_v: int = 64
    out_dim: int = 512

    def masked_attend(self, q, k, v, keep):
        logits = jnp.einsum("...qd,...kd->...qk", q, k) / jnp.sqrt(self.d_k)
        weights = nn.softmax(logits, axis=-1)
        weights = jnp.einsum("...qk,q->...qk", weights, keep)  # expect: ATT006
        return jnp.matmul(weights, v)

    @nn.compact
    def __call__(self, x, keep):
        outputs = []
        for h in range(self.heads):
            q = nn.Dense(self.d_k, name=f"q_{h}")(x)
            k = nn.Dense(self.d_k, name=f"k_{h}")(x)
            v = nn.Dense(self.d_v, name=f"v_{h}")(x)
            outputs.append(self.masked_attend(q, k, v, keep))
        return nn.Dense(self.out_dim, name="merge")(jnp.concatenate(outputs, axis=-1))


class HeadwiseCrossAttention(nn.Module):
    heads: int = 8
    d_k: int = 64
    d_v: int = 64
    out_dim: int = 512

    @nn.compact
    def __call__(self, memory, x):
        outputs = []
        for h in range(self.heads):
            q = nn.Dense(self.d_k, name=f"q_{h}")(x)
            k = nn.Dense(self.d_k, name=f"k_{h}")(memory)
            v = nn.Dense(self.d_v, name=f"v_{h}")(memory)
            outputs.append(attend(q, k, v, self.d_k))
        return nn.Dense(self.out_dim, name="merge")(jnp.concatenate(outputs, axis=-1))


class DecoderLayer(nn.Module):
    width: int = 512
    heads: int = 8
    hidden: int = 2048

    @nn.compact
    def __call__(self, tokens, memory, keep):
        x = nn.LayerNorm()(tokens + HeadwiseMaskedSelfAttention(self.heads, out_dim=self.width)(tokens, keep))
        x = nn.LayerNorm()(x + HeadwiseCrossAttention(self.heads, out_dim=self.width)(memory, x))
        y = nn.Dense(self.width)(nn.relu(nn.Dense(self.hidden)(x)))
        return nn.LayerNorm()(x + y)


class EncoderLayer(nn.Module):
    width: int = 512
    heads: int = 8
    hidden: int = 2048

    @nn.compact
    def __call__(self, tokens):
        x = nn.LayerNorm()(tokens + HeadwiseSelfAttention(self.heads, out_dim=self.width)(tokens))
        y = nn.Dense(self.width)(nn.relu(nn.Dense(self.hidden)(x)))
        return nn.LayerNorm()(x + y)
