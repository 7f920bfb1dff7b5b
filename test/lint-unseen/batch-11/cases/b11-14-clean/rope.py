import jax.numpy as jnp


def rope_freqs(d_head, max_len, base=10000.0):
    inv = 1.0 / (base ** (jnp.arange(0, d_head, 2) / d_head))
    return jnp.outer(jnp.arange(max_len), inv)  # (max_len, d_head // 2)


def apply_rope(x, freqs):
    # x: (batch, heads, seq, d_head); freqs: (seq, d_head // 2)
    x1, x2 = x[..., ::2], x[..., 1::2]
    cos, sin = jnp.cos(freqs), jnp.sin(freqs)
    return jnp.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).reshape(x.shape)
