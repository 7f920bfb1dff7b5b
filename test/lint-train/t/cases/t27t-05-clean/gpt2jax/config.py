from dataclasses import dataclass

import jax


@dataclass(frozen=True)
class GPT2Config:
    vocab_size: int = 50257   # V
    context_size: int = 1024  # longest prompt + generation
    n_layer: int = 12
    n_embd: int = 768         # C
    n_head: int = 12          # H, so 64 per head


GPT2_SMALL = GPT2Config()
RNG_KEY = jax.random.PRNGKey(12)


def describe(cfg: GPT2Config) -> str:
    head = cfg.n_embd // cfg.n_head
    return f"{cfg.n_layer} layers, {cfg.n_head} heads of {head}, context {cfg.context_size}"
