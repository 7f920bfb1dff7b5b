# case: t44ff-18-clean
# modelled-on: google-research/perceiver-ar https://github.com/google-research/perceiver-ar/commit/168e6f2b8d33e5cf9b2e3797693e3d173b115d94
# label: correct
# class: clean
# pattern: Perceiver AR in Haiku/JAX: latents placed on the LAST positions of the input cross-attend to all inputs under a mask built in another module from positions (`make_attention_mask(latent_pos, input_id, pairwise_fn=greater_equal)` times a padding mask), attention `einsum('bthd,bThd->bhtT') * 1/sqrt(head_dim)`, `jnp.where(mask, attention, -1e30)`, `jax.nn.softmax` over the last axis; when sampling with a KV memory the new keys are appended to the cached ones after `assert mask is None` (the new query is later than every cached input)
# why: correct: the mask compares each latent's own input position with each key's position, so a latent at position p sees inputs 0..p however many inputs precede the latents (position-based, bottom-right by construction), and padding keys are dropped by the second mask; mask 1 = attend, so `where(mask, scores, -1e30)` keeps the allowed entries; in the cached path the one new step attends to all cached keys, which are all in its past, so no mask is needed
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/google-research/perceiver-ar https://github.com/google-research/perceiver-ar/commit/168e6f2b8d33e5cf9b2e3797693e3d173b115d94 perceiver_ar/perceiver_ar_model.py
import math
from typing import Optional

import chex
import haiku as hk
import jax
import jax.numpy as jnp


@chex.dataclass
class KVMemory:
    k: jnp.ndarray
    v: jnp.ndarray


class CrossOrSelfAttention(hk.Module):
    def __init__(self, dropout, heads=8, qk_channels=None, v_channels=None, name=None):
        super().__init__(name=name)
        self.heads = heads
        self.dropout = dropout
        self.qk_channels = qk_channels
        self.v_channels = v_channels

    def _attend(self, q, k, v, mask: Optional[jnp.ndarray], training: bool):
        b, n_q, h, d = q.shape
        scores = jnp.einsum("bthd,bThd->bhtT", q, k) * (1.0 / math.sqrt(d))
        if mask is not None:
            mask = jnp.broadcast_to(mask, (mask.shape[0], h) + mask.shape[2:])
            scores = jnp.where(mask, scores, -1e30)     # mask 0 = blocked
        probs = jax.nn.softmax(scores)
        if training:
            probs = hk.dropout(hk.next_rng_key(), self.dropout, probs)
        out = jnp.einsum("bhtT,bThd->bthd", probs, v)
        return jnp.reshape(out, [b, n_q, h * d])

    def __call__(self, x_q, x_kv, training: bool, mask=None, memory: Optional[KVMemory] = None):
        qk = self.qk_channels or x_q.shape[-1]
        vc = self.v_channels or qk
        q = hk.Linear(qk)(x_q)
        k = hk.Linear(qk)(x_kv)
        v = hk.Linear(vc)(x_kv)
        b, t_q, _ = q.shape
        t_kv = k.shape[1]
        q = jnp.reshape(q, [b, t_q, self.heads, qk // self.heads])
        k = jnp.reshape(k, [b, t_kv, self.heads, qk // self.heads])
        v = jnp.reshape(v, [b, t_kv, self.heads, vc // self.heads])
        if memory is not None:
            # sampling: the new step comes after every cached input, so nothing needs masking
            assert mask is None
            k = jnp.concatenate([memory.k, k], axis=1)
            v = jnp.concatenate([memory.v, v], axis=1)
        out = self._attend(q, k, v, mask, training)
        return hk.Linear(vc)(out), KVMemory(k=k, v=v)
