# case: b9-07-clean
# modelled-on: daniel-gallo/jax-playground https://github.com/daniel-gallo/jax-playground/commit/04ff2f15b022f5015d31ed03e627a532cf3f012c
# label: correct
# class: clean
# pattern: a Flax (linen) transformer written from parts: an attention function for unbatched (seq, d) inputs using k.T and flax's softmax without an axis argument, a QKV module with raw parameters, and a self-attention module in which every head projects to the full embedding width, concatenates the heads and projects back
# why: correct: q and k are 2-D (seq, d), so k.T swaps exactly the token and feature axes; nn.softmax defaults to the last (key) axis; each head's queries are embed_dim wide, so dividing by sqrt(embed_dim) is the per-head 1/sqrt(d_k); the real module dropped the result of z.at[...].set(...) (a JAX arrays-are-immutable slip, unrelated to attention), written here as an assignment
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/daniel-gallo/jax-playground https://github.com/daniel-gallo/jax-playground/commit/04ff2f15b022f5015d31ed03e627a532cf3f012c transformer/modules/self_attention.py
from typing import Callable

import flax.linen as nn
import jax.numpy as jnp

from attention import attention
from qkv import QKVModule


class SelfAttention(nn.Module):
    embed_dim: int
    num_heads: int
    w_o_init: Callable = nn.initializers.he_normal()

    @nn.compact
    def __call__(self, x):
        seq_length, embed_dim = x.shape
        assert embed_dim == self.embed_dim

        z = jnp.zeros((seq_length, embed_dim * self.num_heads))
        for head in range(self.num_heads):
            q, k, v = QKVModule(in_features=embed_dim, out_features=embed_dim)(x)
            z = z.at[:, embed_dim * head : embed_dim * (head + 1)].set(attention(q, k, v))

        w_o = self.param("w_o", self.w_o_init, (embed_dim * self.num_heads, embed_dim))
        return z @ w_o


class TransformerBlock(nn.Module):
    embed_dim: int
    num_heads: int

    @nn.compact
    def __call__(self, x):
        x = x + SelfAttention(embed_dim=self.embed_dim, num_heads=self.num_heads)(nn.LayerNorm()(x))
        h = nn.Dense(self.embed_dim)(nn.LayerNorm()(x))
        return x + nn.Dense(self.embed_dim)(nn.gelu(h))
