import jax
import jax.numpy as jnp

from models.gpt2 import KVCache


def generate(model, idx, new_tokens: int, temperature: float, rngs):
    B = idx.shape[0]
    shape = (B, model.n_head, model.d_context, model.d_head)
    cache = [KVCache(key=jnp.zeros(shape), value=jnp.zeros(shape), pos=0) for _ in range(model.n_layers)]
    # process the prompt: this warms up the cache with the prompt context
    logits, cache = model(idx, deterministic=True, cache=cache)
    logits = logits[:, -1, :]
    for _ in range(new_tokens):
        idx_next = jax.random.categorical(rngs(), logits / temperature, axis=-1)[:, None]
        idx = jnp.concatenate([idx, idx_next], axis=1)
        logits, cache = model(idx_next, deterministic=True, cache=cache)
        logits = logits[:, -1, :]
    return idx
