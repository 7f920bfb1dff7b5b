# case: t8b-07-clean
# modelled-on: AlphaGPU/leetgpu-challenges https://github.com/AlphaGPU/leetgpu-challenges/commit/119f737546fe34f58874f50edb66054f3aa0e2f4
# label: correct
# class: clean
# pattern: the reference implementations (PyTorch and JAX) of a multi-head cross-attention challenge: queries (M, H, D) and keys/values (N, H, D) are moved head-first with transpose(0, 1) / jnp.transpose(x, (1, 0, 2)), then the keys' last two axes are swapped for the score product, scaled by 1/sqrt(D) and softmaxed over the last axis
# why: correct: transpose(0, 1) only moves the head axis to the front ((N, H, D) -> (H, N, D)); the score product then uses Kt.transpose(-2, -1) / jnp.transpose(Kt, (0, 2, 1)), i.e. (H, D, N), so the scores are (H, M, N) over the head features; D is the per-head width
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/AlphaGPU/leetgpu-challenges https://github.com/AlphaGPU/leetgpu-challenges/commit/119f737546fe34f58874f50edb66054f3aa0e2f4 challenges/hard/26_multi_head_cross_attention/challenge.py
import math

import jax
import jax.numpy as jnp
import torch


def cross_attention_torch(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
    # Q: (M, H, D); K, V: (N, H, D)
    M, H, D = Q.shape
    Qt = Q.transpose(0, 1)  # (H, M, D)
    Kt = K.transpose(0, 1)  # (H, N, D)
    Vt = V.transpose(0, 1)
    scale = 1.0 / math.sqrt(D)
    scores = torch.matmul(Qt, Kt.transpose(-2, -1)) * scale  # (H, M, N)
    attn = torch.softmax(scores, dim=-1)
    out = torch.matmul(attn, Vt)  # (H, M, D)
    return out.transpose(0, 1)  # (M, H, D)


def cross_attention_jax(Q, K, V):
    M, H, D = Q.shape
    Qt = jnp.transpose(Q, (1, 0, 2))
    Kt = jnp.transpose(K, (1, 0, 2))
    Vt = jnp.transpose(V, (1, 0, 2))
    scale = 1.0 / math.sqrt(D)
    scores = jnp.matmul(Qt, jnp.transpose(Kt, (0, 2, 1)), precision=jax.lax.Precision.HIGHEST) * scale
    attn = jax.nn.softmax(scores, axis=-1)
    out = jnp.matmul(attn, Vt, precision=jax.lax.Precision.HIGHEST)
    return jnp.transpose(out, (1, 0, 2))
