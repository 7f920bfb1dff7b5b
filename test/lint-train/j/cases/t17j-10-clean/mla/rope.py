import jax.numpy as jnp


def apply_rope(q, k, base=10000.0):
    """Rotary embedding on the last axis of (batch, seq, heads, dim) tensors."""
    seq, dim = q.shape[1], q.shape[-1]
    inv_freq = 1.0 / (base ** (jnp.arange(0, dim, 2) / dim))
    angles = jnp.arange(seq)[:, None] * inv_freq[None, :]
    sin = jnp.sin(angles)[None, :, None, :]
    cos = jnp.cos(angles)[None, :, None, :]

    def rotate(x):
        x1, x2 = x[..., ::2], x[..., 1::2]
        return jnp.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1)

    return rotate(q), rotate(k)
