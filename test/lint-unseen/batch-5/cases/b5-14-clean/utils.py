import jax
import jax.numpy as jnp


@jax.jit
def softmax_columns(x: jnp.ndarray, temp: float = 1):
    """Softmax over axis 1 of a (heads, n_k, n_q) array: each column sums to 1."""
    e = jnp.exp(x / temp)
    return (e.mT / jnp.expand_dims(jnp.sum(e, axis=1), 2)).mT
