import equinox as eqx
import jax
import jax.numpy as jnp
from jax import Array


def rope_freqs(head_dim: int, seq_len: int, base: float = 10000.0):
    """cos/sin tables of shape (T, head_dim // 2)."""
    inv = 1.0 / (base ** (jnp.arange(0, head_dim, 2) / head_dim))
    ang = jnp.arange(seq_len)[:, None] * inv[None, :]
    return jnp.cos(ang), jnp.sin(ang)


def apply_rope(x: Array, cos: Array, sin: Array) -> Array:
    """x: (H, T, Dh); rotates pairs (x[2i], x[2i+1]) by the position angle."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    r1 = x1 * cos - x2 * sin
    r2 = x1 * sin + x2 * cos
    return jnp.stack([r1, r2], axis=-1).reshape(x.shape)


class RMSNorm(eqx.Module):
    weight: Array
    eps: float = eqx.field(static=True)

    def __init__(self, dim: int, eps: float = 1e-6):
        self.weight = jnp.ones((dim,))
        self.eps = eps

    def __call__(self, x: Array) -> Array:
        return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + self.eps) * self.weight
