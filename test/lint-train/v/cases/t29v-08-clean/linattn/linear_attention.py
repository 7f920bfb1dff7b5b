# case: t29v-08-clean
# modelled-on: rkstgr/linear-attention https://github.com/rkstgr/linear-attention/commit/0c0ecb55c340ec3d9cb13c92352922b27e2ca017
# label: correct
# class: clean
# pattern: JAX/Equinox study of linear-attention mixers against a softmax baseline on one sequence x: (T, D): the baseline Attention splits heads to (H, T, Dh), applies RoPE, divides q @ k.transpose(0, 2, 1) by jnp.sqrt(Dh), fills the future with -inf and takes jax.nn.softmax(axis=-1); LinearAttention (Katharopoulos et al. with a SiLU feature map and a short causal depthwise conv) computes the parallel form (q @ k.transpose(0, 2, 1) * mask) @ v with a boolean tril mask multiplied into the unscaled, un-normalised scores and no softmax; every weight matrix is initialised with normal * 1 / jnp.sqrt(dim)
# why: correct: linear attention is the recurrence S_t = S_{t-1} + v_t k_t^T, o_t = S_t q_t, whose parallel form is exactly (q k^T * causal 0/1 mask) v, with no softmax, no normaliser and no 1/sqrt(d) (the docstring says so); multiplying by the 0/1 mask removes the future terms of the sum, which is what a mask must do when there is no softmax; the 1/sqrt(dim) factors in __init__ scale the initial weights, not the scores; in the baseline, k is (H, T, Dh), so transpose(0, 2, 1) swaps T and Dh, the scale is 1/sqrt(Dh) of one head, and axis=-1 is the key axis
# looks-like: ATT003, ATT006, ATT004, ATT005
# source: https://github.com/rkstgr/linear-attention https://github.com/rkstgr/linear-attention/commit/0c0ecb55c340ec3d9cb13c92352922b27e2ca017 linear_attention.py, linattn/models/attention.py, utils.py
import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array

from .utils import RMSNorm

CONV_SIZE = 4  # short conv kernel, as in the Based / Zoology recipe


def causal_dwconv(x: Array, w: Array) -> Array:
    """Depthwise causal 1-D conv: x (T, D), w (K, D) -> (T, D), out[t] = sum_k w[k] * x[t - k]."""
    T = x.shape[0]
    K = w.shape[0]
    x_pad = jnp.pad(x, ((K - 1, 0), (0, 0)))
    return sum(w[k] * x_pad[K - 1 - k : K - 1 - k + T] for k in range(K))


class LinearAttention(eqx.Module):
    """S_t = S_{t-1} + v_t k_t^T ; o_t = S_t q_t  (SiLU feature map; no softmax, no normaliser)."""

    Wq: Array
    Wk: Array
    Wv: Array
    Wo: Array
    Cq: Array
    Ck: Array
    Cv: Array
    n_heads: int = eqx.field(static=True)
    head_dim: int = eqx.field(static=True)

    def __init__(self, dim: int, n_heads: int, key):
        assert dim % n_heads == 0
        keys = jax.random.split(key, 7)
        s = 1.0 / jnp.sqrt(dim)
        sc = 1.0 / jnp.sqrt(CONV_SIZE)
        self.Wq = jax.random.normal(keys[0], (dim, dim)) * s
        self.Wk = jax.random.normal(keys[1], (dim, dim)) * s
        self.Wv = jax.random.normal(keys[2], (dim, dim)) * s
        self.Wo = jax.random.normal(keys[3], (dim, dim)) * s
        self.Cq = jax.random.normal(keys[4], (CONV_SIZE, dim)) * sc
        self.Ck = jax.random.normal(keys[5], (CONV_SIZE, dim)) * sc
        self.Cv = jax.random.normal(keys[6], (CONV_SIZE, dim)) * sc
        self.n_heads = n_heads
        self.head_dim = dim // n_heads

    def _heads(self, x, W, C):
        T = x.shape[0]
        return jax.nn.silu(causal_dwconv(x @ W, C)).reshape(T, self.n_heads, self.head_dim).transpose(1, 0, 2)

    def __call__(self, x: Array) -> Array:
        T, D = x.shape
        q = self._heads(x, self.Wq, self.Cq)  # (H, T, Dh)
        k = self._heads(x, self.Wk, self.Ck)
        v = self._heads(x, self.Wv, self.Cv)

        mask = jnp.tril(jnp.ones((T, T), dtype=bool))
        out = (q @ k.transpose(0, 2, 1) * mask) @ v

        out = out.transpose(1, 0, 2).reshape(T, D)  # merge heads
        return out @ self.Wo


class Block(eqx.Module):
    norm: RMSNorm
    attn: LinearAttention

    def __init__(self, dim: int, n_heads: int, key):
        self.norm = RMSNorm(dim)
        self.attn = LinearAttention(dim, n_heads, key)

    def __call__(self, x: Array) -> Array:
        return x + self.attn(self.norm(x))
