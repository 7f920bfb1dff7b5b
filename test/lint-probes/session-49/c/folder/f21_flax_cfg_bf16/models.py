import jax
import jax.numpy as jnp
import flax.linen as nn
from configs import TransformerConfig


class Attention(nn.Module):
    config: TransformerConfig

    @nn.compact
    def __call__(self, x, mask):
        cfg = self.config
        dh = cfg.d // cfg.heads
        q = nn.DenseGeneral((cfg.heads, dh), dtype=cfg.dtype)(x)
        k = nn.DenseGeneral((cfg.heads, dh), dtype=cfg.dtype)(x)
        v = nn.DenseGeneral((cfg.heads, dh), dtype=cfg.dtype)(x)
        logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(dh).astype(cfg.dtype)
        logits = jnp.where(mask[:, None, None, :], logits, -1e10)  # fits bfloat16
        w = jax.nn.softmax(logits, axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", w, v).reshape(x.shape[0], x.shape[1], cfg.d)
