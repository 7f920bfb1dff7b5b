import einops as op
import jax
import jax.numpy as jnp

from attention import roll_cache
from config import SEVEN_B


def prompt_mask(pad_mask):
    square = op.einsum(pad_mask, pad_mask, 'B L1, B L2 -> B L1 L2')
    return op.rearrange(jnp.tril(square), 'B L1 L2 -> B 1 1 L1 L2')


def step_mask(pad_mask):
    return op.rearrange(pad_mask, 'B L -> B 1 1 1 L')


def greedy(forward, params, seq, pad_mask, n_new):
    settings = SEVEN_B._replace(return_kv_cache=True)
    hidden, cache = forward(params, seq, prompt_mask(pad_mask), cache=None, settings=settings)
    token = (hidden[:, -1] @ params.lm_head).argmax(-1)
    seq = jnp.roll(seq, -1, axis=-1).at[:, -1].set(token)
    pad_mask = jnp.roll(pad_mask, -1, axis=-1).at[:, -1].set(True)
    cache = roll_cache(cache)

    def body(_, carry):
        seq, pad_mask, token, cache = carry
        hidden, cache = forward(params, token[:, None], step_mask(pad_mask), cache=cache, settings=settings)
        token = (hidden[:, -1] @ params.lm_head).argmax(-1)
        seq = jnp.roll(seq, -1, axis=-1).at[:, -1].set(token)
        pad_mask = jnp.roll(pad_mask, -1, axis=-1).at[:, -1].set(True)
        return seq, pad_mask, token, roll_cache(cache)

    seq, *_ = jax.lax.fori_loop(0, n_new, body, (seq, pad_mask, token, cache))
    return seq
