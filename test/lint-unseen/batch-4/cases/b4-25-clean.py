# case: b4-25-clean
# modelled-on: bhoov/energy-transformer-jax https://github.com/bhoov/energy-transformer-jax/commit/f01e90c4d6ba4e1504071a9aafd9c19047763d35
# label: correct
# class: clean
# pattern: the Energy Transformer's attention in Flax: per-head inverse temperatures `betas` (1/sqrt(kspace) by default) are folded into an einsum producing (heads, queries, keys) scores; the energy is -1/beta times the logsumexp over the keys, and a hand-written gradient takes a softmax over the keys and contracts it once over the keys (the query-side term) and once over the queries (the key-side term)
# why: correct: the softmax normalises over the key axis (-1 of 'hqk'); contracting the same weights over the query axis is the gradient of the energy with respect to the keys' tokens, not an attention output; the scale is the betas factor inside the einsum
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/bhoov/energy-transformer-jax https://github.com/bhoov/energy-transformer-jax/commit/f01e90c4d6ba4e1504071a9aafd9c19047763d35 og_implementation/energy_transformer/flax_core.py
from typing import Any, Optional

import flax.linen as nn
import jax
import jax.numpy as jnp


class EnergyAttention(nn.Module):
    tokdim: int = 768
    nheads: int = 12
    kspace_dim: int = 64
    param_dtype: Any = jnp.float32
    beta_init: Optional[float] = None

    def setup(self):
        init = nn.initializers.normal(0.002)
        self.Wk = self.param("Wk", init, (self.nheads, self.kspace_dim, self.tokdim), self.param_dtype)
        self.Wq = self.param("Wq", init, (self.nheads, self.kspace_dim, self.tokdim), self.param_dtype)
        beta = self.beta_init if self.beta_init is not None else 1 / jnp.sqrt(self.kspace_dim)
        self.betas = jnp.ones(self.nheads, dtype=self.param_dtype) * beta

    def energy(self, g):
        # g: (tokens, tokdim)
        K = jnp.einsum("kd,hzd->khz", g, self.Wk)  # (keys, heads, kspace)
        Q = jnp.einsum("qd,hzd->qhz", g, self.Wq)  # (queries, heads, kspace)
        scores = jnp.einsum("h,qhz,khz->hqk", self.betas, Q, K)  # (heads, queries, keys)
        lse = jax.nn.logsumexp(scores, -1)  # (heads, queries)
        return (-1 / self.betas * lse.sum(-1)).sum()

    def manual_grad(self, g):
        K = jnp.einsum("hzd,kd->khz", self.Wk, g)
        Q = jnp.einsum("hzd,qd->qhz", self.Wq, g)
        F1 = jnp.einsum("hzd,khz->khd", self.Wq, K)
        F2 = jnp.einsum("hzd,qhz->qhd", self.Wk, Q)
        scores = jnp.einsum("h,khz,qhz->hqk", self.betas, K, Q)
        weights = jax.nn.softmax(scores, -1)  # (heads, queries, keys)
        t_query = -jnp.einsum("khd,hqk->qd", F1, weights)
        t_key = -jnp.einsum("qhd,hqk->kd", F2, weights)
        return t_query + t_key

    def __call__(self, g):
        return jax.value_and_grad(self.energy)(g)
