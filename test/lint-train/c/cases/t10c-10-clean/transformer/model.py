import equinox as eqx
import jax
import jax.numpy as jnp

from transformer.scaled_attention import ScaledDotProdAttention


class Head(eqx.Module):
    wq: eqx.nn.Linear
    wk: eqx.nn.Linear
    wv: eqx.nn.Linear
    attn: ScaledDotProdAttention

    def __init__(self, d_model, d_k, seq_len, masked, key):
        k1, k2, k3 = jax.random.split(key, 3)
        self.wq = eqx.nn.Linear(d_model, d_k, key=k1)
        self.wk = eqx.nn.Linear(d_model, d_k, key=k2)
        self.wv = eqx.nn.Linear(d_model, d_k, key=k3)
        self.attn = ScaledDotProdAttention(seq_len, masked)

    def __call__(self, x, mask):
        q, k, v = jax.vmap(self.wq)(x), jax.vmap(self.wk)(x), jax.vmap(self.wv)(x)
        return self.attn(q, k, v, mask)


def create_pad_mask(inputs):
    """(seq_len, input_dim) -> (seq_len,) ints: 1 where a row is not padding (all zeros), 0 where it is."""
    keep = jnp.sum(jnp.abs(inputs), axis=-1) != 0
    return keep.astype(int)


def decode_step(head: Head, outputs):
    return head(outputs, create_pad_mask(outputs))
