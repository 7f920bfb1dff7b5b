# case: t34aa-10-clean
# modelled-on: NTT123/jaxGPT https://github.com/NTT123/jaxGPT/commit/e8057e997336a9428afae95340c2b9b27914cf99
# label: correct
# class: clean
# pattern: a GPT-2-small training script in JAX with the PAX module library: fused q/k/v weights split with jnp.split, heads reshaped to (N, L, H, D/H) and never transposed, scores made by `einsum("NSHD,NTHD->NSTH", q, k) / sqrt(head_dim)` so the heads are the LAST axis of the scores, a lower-triangular boolean keep mask broadcast as `mask[None, :, :, None]`, `jnp.where(mask, scores, -inf)`, `jax.nn.softmax(scores, axis=2)`, and the values read with `einsum("NTHD,NSTH->NSHD", v, weights)`; float32 parameters throughout
# why: correct: in the (N, S, T, H) layout axis 2 is T, the key axis, and the value einsum sums over exactly T; the mask's True (kept) entries are on and below the diagonal of (S, T), the jnp.where convention, and broadcast over the batch and the heads by the None axes; the scale is 1/sqrt(head_dim) (q.shape[-1] after the reshape); the -inf fill never fills a whole row (the diagonal is kept) and the scores are float32
# looks-like: ATT001, ATT002, ATT004, ATT007
# source: https://github.com/NTT123/jaxGPT https://github.com/NTT123/jaxGPT/commit/e8057e997336a9428afae95340c2b9b27914cf99 train.py
import math

import jax
import jax.numpy as jnp
import numpy as np
import pax
from optax.losses import softmax_cross_entropy_with_integer_labels

vocab_size = 50304
dim = 768
num_head = 12
num_layer = 12
seq_len = 1024


class RMSNorm(pax.ParameterModule):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.W = jnp.ones(dim).astype(jnp.float32)

    def __call__(self, x):
        x = x * jax.lax.rsqrt(jnp.sum(jnp.square(x), axis=-1, keepdims=True) + self.eps)
        return x * self.W[None, None, :]


class SelfAttention(pax.ParameterModule):
    def __init__(self, dim: int, num_head: int):
        super().__init__()
        self.W_qkv = jnp.array(np.random.randn(dim, 3 * dim) / math.sqrt(3 * dim)).astype(jnp.float32)
        self.W_o = jnp.array(np.random.randn(dim, dim) * 1e-2 / math.sqrt(dim)).astype(jnp.float32)
        assert dim % num_head == 0
        self.H = num_head
        self.D = dim

    def __call__(self, x: jnp.ndarray):
        qkv = jnp.einsum("NLD,DK->NLK", x, self.W_qkv)
        q, k, v = jnp.split(qkv, 3, axis=-1)
        N, L, D = q.shape
        H = self.H
        q = jnp.reshape(q, (N, L, H, D // H))
        k = jnp.reshape(k, (N, L, H, D // H))
        v = jnp.reshape(v, (N, L, H, D // H))
        scores = jnp.einsum("NSHD,NTHD->NSTH", q, k) / math.sqrt(q.shape[-1])
        keep = jnp.tril(jnp.ones((L, L), dtype=jnp.bool_))
        scores = jnp.where(keep[None, :, :, None], scores, float("-inf"))
        weights = jax.nn.softmax(scores, axis=2)
        out = jnp.einsum("NTHD,NSTH->NSHD", v, weights).reshape(N, L, D)
        return jnp.einsum("NLD,DK->NLK", out, self.W_o)


class MLP(pax.ParameterModule):
    def __init__(self, dim: int):
        super().__init__()
        self.W_0 = jnp.array(np.random.randn(dim, 4 * dim) / math.sqrt(4 * dim)).astype(jnp.float32)
        self.W_1 = jnp.array(np.random.randn(dim, 4 * dim) / math.sqrt(4 * dim)).astype(jnp.float32)
        self.W_2 = jnp.array(np.random.randn(4 * dim, dim) * 1e-2 / math.sqrt(dim / 2)).astype(jnp.float32)

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        gate = jax.nn.silu(jnp.einsum("NLD,DK->NLK", x, self.W_0))
        up = jnp.einsum("NLD,DK->NLK", x, self.W_1)
        return jnp.einsum("NLK,KD->NLD", gate * up, self.W_2)


class GPT(pax.ParameterModule):
    def __init__(self, dim: int, num_head: int, num_block: int, vocab_size: int, max_seq_len: int):
        super().__init__()
        self.W_embed = jnp.array(np.random.randn(vocab_size, dim)).astype(jnp.float32) / math.sqrt(dim)
        self.W_pos_embed = jnp.array(np.random.randn(max_seq_len, dim)).astype(jnp.float32) / math.sqrt(dim)
        self.W_unembed = jnp.array(np.random.randn(dim, vocab_size)).astype(jnp.float32) / math.sqrt(vocab_size)
        self.attn_norm_layers = [RMSNorm(dim) for _ in range(num_block)]
        self.attn_layers = [SelfAttention(dim, num_head) for _ in range(num_block)]
        self.mlp_norm_layers = [RMSNorm(dim) for _ in range(num_block)]
        self.mlp_layers = [MLP(dim) for _ in range(num_block)]
        self.norm = RMSNorm(dim)

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        N, L = x.shape
        pos = self.W_pos_embed[(jnp.arange(0, L, dtype=x.dtype)[None, :],)]
        x = self.W_embed[(x,)] + pos
        for attn_norm, attn, mlp_norm, mlp in zip(
            self.attn_norm_layers, self.attn_layers, self.mlp_norm_layers, self.mlp_layers
        ):
            x = x + attn(attn_norm(x))
            x = x + mlp(mlp_norm(x))
        return jnp.einsum("NLD,DK->NLK", self.norm(x), self.W_unembed)


def loss_fn(model, x, y):
    logits = model(x)
    return softmax_cross_entropy_with_integer_labels(logits, y).mean()


def make_model():
    return GPT(dim, num_head, num_layer, vocab_size, seq_len)
