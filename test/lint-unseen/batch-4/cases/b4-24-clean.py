# case: b4-24-clean
# modelled-on: yun-kwak/decision-transformer-jax https://github.com/yun-kwak/decision-transformer-jax/commit/ab3fd2d3bd06d9b3b30576e4e110d45ecc56c5b4
# label: correct
# class: clean
# pattern: a Haiku decision transformer whose causal self-attention works on one unbatched (T, C) sequence (the batch is added with vmap): q, k, v are reshaped to (T, heads, hs) and swapaxes(0, 1) moves the heads first; the scores q @ k.swapaxes(-2, -1) are scaled by 1/sqrt(hs), a float np.tril(ones) buffer sliced to [:T, :T] is the condition of jnp.where (keep the score where it is nonzero, -inf elsewhere), and jax.nn.softmax runs over the last axis
# why: correct: on the unbatched (heads, T, hs) tensors swapaxes(-2, -1) is the key transpose and swapaxes(0, 1) only moves the heads; the tril buffer is 1 on and below the diagonal, so jnp.where keeps the past and the diagonal (never an all -inf row)
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/yun-kwak/decision-transformer-jax https://github.com/yun-kwak/decision-transformer-jax/commit/ab3fd2d3bd06d9b3b30576e4e110d45ecc56c5b4 dt_jax/networks.py
import math

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class CausalSelfAttention(hk.Module):
    def __init__(self, n_embd: int, n_head: int, max_block_size: int, attn_pdrop: float = 0.1, name=None):
        super().__init__(name=name)
        assert n_embd % n_head == 0
        self.n_embd = n_embd
        self.n_head = n_head
        self.attn_pdrop = attn_pdrop
        init = hk.initializers.RandomNormal(stddev=0.02, mean=0.0)
        self.key = hk.Linear(n_embd, w_init=init, name="key")
        self.query = hk.Linear(n_embd, w_init=init, name="query")
        self.value = hk.Linear(n_embd, w_init=init, name="value")
        self.proj = hk.Linear(n_embd, w_init=init, name="proj")
        # 1 on and below the diagonal: attention only to the left
        self.tri = np.tril(np.ones((max_block_size + 1, max_block_size + 1)))

    def __call__(self, x, is_training: bool):
        T, C = x.shape  # one sequence; the batch axis is added by vmap
        hs = C // self.n_head
        k = self.key(x).reshape(T, self.n_head, hs).swapaxes(0, 1)  # (nh, T, hs)
        q = self.query(x).reshape(T, self.n_head, hs).swapaxes(0, 1)
        v = self.value(x).reshape(T, self.n_head, hs).swapaxes(0, 1)

        att = (q @ k.swapaxes(-2, -1)) * (1.0 / math.sqrt(k.shape[-1]))  # (nh, T, T)
        att = jnp.where(self.tri[:T, :T], att, float("-inf"))
        att = jax.nn.softmax(att, axis=-1)
        if is_training:
            att = hk.dropout(hk.next_rng_key(), self.attn_pdrop, att)
        y = (att @ v).swapaxes(0, 1).reshape(T, C)
        return self.proj(y)


def batched_attention(params, rng, xs, apply_fn):
    # xs: (B, T, C); the module sees one (T, C) sequence at a time
    return jax.vmap(lambda x: apply_fn(params, rng, x, True))(xs)
