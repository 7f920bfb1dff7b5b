import jax.numpy as jnp


def apply_rotary_emb(x, freqs, rope_dim: int):
    rot, rest = x[..., :rope_dim], x[..., rope_dim:]
    r = rot.reshape(*rot.shape[:-1], rope_dim // 2, 2)
    cos, sin = freqs[..., 0], freqs[..., 1]
    out = jnp.stack([r[..., 0] * cos - r[..., 1] * sin, r[..., 0] * sin + r[..., 1] * cos], axis=-1)
    return jnp.concatenate([out.reshape(rot.shape), rest], axis=-1)
