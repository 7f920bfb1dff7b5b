from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def everything_visible(n: int) -> jax.Array:
    return jnp.ones((n, n), dtype=jnp.bool_)


@partial(jax.jit, static_argnames=("n",))
def lower_triangle(n: int) -> jax.Array:
    # True on and below the diagonal: row i may read columns 0..i.
    return jnp.tril(everything_visible(n))


@partial(jax.jit, static_argnames=("n_prompt", "n_answer"))
def prompt_then_answer(n_prompt: int, n_answer: int) -> jax.Array:
    """The puzzle cells see each other freely; every answer cell reads only what precedes it."""
    allowed = lower_triangle(n_prompt + n_answer)
    return allowed.at[:n_prompt, :n_prompt].set(True)


@partial(jax.jit, static_argnames=("n_prompt", "n_scratch", "n_answer"))
def prompt_scratch_answer(n_prompt: int, n_scratch: int, n_answer: int) -> jax.Array:
    lo, hi = n_prompt, n_prompt + n_scratch
    allowed = lower_triangle(n_prompt + n_scratch + n_answer)
    return allowed.at[lo:hi, :hi].set(True)


@jax.jit
def hide(allowed: jax.Array, logits: jax.Array) -> jax.Array:
    """Keeps the logits where `allowed` is True, -inf elsewhere."""
    return jnp.where(allowed, logits, -jnp.inf)
