import jax
import jax.numpy as jnp

from gpt2jax.config import GPT2_SMALL, RNG_KEY
from gpt2jax.model import GPT2LMHeadModel


def greedy(logits: jax.Array) -> jax.Array:
    return jnp.argmax(logits[..., -1, :], axis=-1)


class TopKSampler:
    def __init__(self, temperature: float = 1.0, top_k: int = 50, rng_key=RNG_KEY):
        self.temperature = temperature
        self.top_k = top_k
        self.rng_key = rng_key

    def __call__(self, logits: jax.Array) -> jax.Array:
        if self.temperature == 0:
            return greedy(logits)
        x = logits[..., -1, :] / self.temperature  # (B, V)
        if self.top_k > 0:
            k = min(self.top_k, x.shape[-1])
            _, idx = jax.lax.top_k(x, k=k)
            keep = jnp.sum(jax.nn.one_hot(idx, x.shape[-1]), axis=-2)  # 1 on the top k
            x = jnp.where(keep, x, -jnp.inf)
        self.rng_key, sub = jax.random.split(self.rng_key)
        return jax.random.categorical(sub, x, axis=-1)


def generate(params, input_ids: jax.Array, max_length: int = 64, decoder=greedy) -> jax.Array:
    """No cache: every step runs the whole prefix again, so each query sees a square mask."""
    model = GPT2LMHeadModel(config=GPT2_SMALL)
    while input_ids.shape[-1] < max_length:
        logits = model.apply(params, input_ids=input_ids)  # (1, T, V)
        next_id = decoder(logits)
        input_ids = jnp.concatenate([input_ids, next_id[:, None]], axis=-1)
    return input_ids
