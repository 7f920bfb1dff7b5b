import jax
import jax.numpy as jnp

from gqa_block import block_attend, init_block
from visibility import prompt_then_answer

GRID_CELLS = 81


def rms(x: jax.Array, eps: float = 1e-6) -> jax.Array:
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + eps)


def make_blocks(rng: jax.Array, depth: int, width: int = 128):
    return [init_block(r, width, q_heads=8, kv_heads=2) for r in jax.random.split(rng, depth)]


def refine(blocks, given: jax.Array, state: jax.Array, allowed: jax.Array) -> jax.Array:
    """One recurrence: the embedded givens are re-injected, then every block adds its update."""
    gain = (2 * len(blocks)) ** -0.5
    h = rms(state) + given
    for blk in blocks:
        h = h + gain * block_attend(blk, rms(h), allowed)
    return h


def solve(blocks, given: jax.Array, rounds: int) -> jax.Array:
    n_answer = given.shape[0] - GRID_CELLS
    allowed = prompt_then_answer(GRID_CELLS, n_answer)
    state = given
    for _ in range(rounds):
        state = refine(blocks, given, state, allowed)
    return rms(state)
