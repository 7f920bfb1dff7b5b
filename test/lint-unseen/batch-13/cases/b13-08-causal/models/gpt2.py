# case: b13-08-causal
# modelled-on: ultrons/jax-gpt https://github.com/ultrons/jax-gpt/commit/0f4597aa450f69f88434529e5a1fa82a0e232474
# label: buggy
# class: real-bug
# pattern: a Flax NNX GPT-2 with a preallocated KV cache (B, heads, d_context, d_head) written at cache.pos with dynamic_update_slice; without a cache the scores get a (T, T) tril mask, with a cache they get a single row arange(d_context) <= cache.pos, applied with jnp.where(~mask, -inf, att); generate() prefills the whole prompt through the cache path (cache.pos == 0) and then decodes one token per step
# why: buggy: the cache-path mask is one row shared by every query and is built from the position BEFORE this call's tokens are written, so during the prefill (T = prompt length, cache.pos = 0) every prompt token may attend only to key 0, and a multi-token call at pos > 0 would let all its queries see the same prefix; the code's own comment says the tril mask is for "training/prompt processing" and generate() says the prefill "warms up the cache with the prompt context", which requires query i of the chunk to see keys 0..pos+i (a bottom-right aligned causal mask over the cache); single-token decode steps happen to be right; the commit ("fixed the KV Cache bug") replaced an unmasked cache path with this one, and the repository's GPT-2 model still has it
# source: https://github.com/ultrons/jax-gpt https://github.com/ultrons/jax-gpt/commit/0f4597aa450f69f88434529e5a1fa82a0e232474 models/gpt2.py
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from flax import nnx


@dataclass
class KVCache:
    key: jax.Array
    value: jax.Array
    pos: int = 0


class CausalSelfAttention(nnx.Module):
    def __init__(self, d_model: int, n_head: int, d_context: int, dropout: float, *, rngs: nnx.Rngs):
        self.c_attn = nnx.Linear(d_model, 3 * d_model, rngs=rngs)
        self.c_proj = nnx.Linear(d_model, d_model, rngs=rngs)
        self.attn_dropout = nnx.Dropout(dropout)
        self.n_head = n_head
        self.d_head = d_model // n_head
        self.d_context = d_context

    def __call__(self, x: jax.Array, *, deterministic: bool, cache: KVCache | None = None):
        B, T, C = x.shape
        q, k, v = jnp.split(self.c_attn(x), 3, axis=-1)
        q = q.reshape(B, T, self.n_head, self.d_head).transpose(0, 2, 1, 3)
        k = k.reshape(B, T, self.n_head, self.d_head).transpose(0, 2, 1, 3)
        v = v.reshape(B, T, self.n_head, self.d_head).transpose(0, 2, 1, 3)

        if cache is not None:
            pos = cache.pos
            new_key = jax.lax.dynamic_update_slice(cache.key, k, (0, 0, pos, 0))
            new_value = jax.lax.dynamic_update_slice(cache.value, v, (0, 0, pos, 0))
            updated_cache = KVCache(key=new_key, value=new_value, pos=pos + T)
            k, v = new_key, new_value
        else:
            updated_cache = None

        att = (q @ k.transpose(0, 1, 3, 2)) * (1.0 / jnp.sqrt(self.d_head))
        if cache is None:  # causal mask during training / prompt processing
            causal_mask = jnp.tril(jnp.ones((T, T), dtype=jnp.bool_)).reshape(1, 1, T, T)
        else:
            causal_mask = (jnp.arange(self.d_context) <= cache.pos).reshape(1, 1, 1, -1)
        att = jnp.where(~causal_mask, -jnp.inf, att)  # expect: ATT008

        att = jax.nn.softmax(att, axis=-1)
        att = self.attn_dropout(att, deterministic=deterministic)
        y = (att @ v).transpose(0, 2, 1, 3).reshape(B, T, C)
        return self.c_proj(y), updated_cache
