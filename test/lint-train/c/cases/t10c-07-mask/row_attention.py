# case: t10c-07-mask
# modelled-on: amyxlu/msa-transformer-jax https://github.com/amyxlu/msa-transformer-jax/commit/3d8f245
# label: buggy
# class: real-bug
# pattern: a Flax port of tied row self-attention whose padding mask is True on padding (it zeroes padded queries with q * (1 - mask)), but the scores are masked with jnp.where(mask, scores, -10000), which keeps the padding and fills the real tokens
# why: the same function treats the mask as 1 = padding for the queries, and the PyTorch reference it cites (rmrao/msa-transformer modules.py) fills the scores where the padding mask is True (masked_fill(mask, -10000)); jnp.where keeps the second argument where the condition is True, so the polarity is inverted (the commit history calls the padding mask still to be debugged; no fix was found)
# source: https://github.com/amyxlu/msa-transformer-jax https://github.com/amyxlu/msa-transformer-jax/commit/3d8f245 axial_attention.py
import math
from typing import Any

import flax.linen as nn
import jax.numpy as jnp

from configs import MSAConfig

Array = Any


class RowSelfAttention(nn.Module):
    config: MSAConfig

    @nn.compact
    def __call__(self, x: Array, deterministic: bool = True, padding_mask: Array = None):
        """x: (R, C, B, E); padding_mask: (B, R, C), True on padding."""
        cfg = self.config
        head_dim = cfg.embed_dim // cfg.attention_heads
        rows, cols, batch, embed = x.shape
        shape = (rows, cols, batch, cfg.attention_heads, head_dim)
        q = nn.Dense(embed)(x).reshape(shape)
        k = nn.Dense(embed)(x).reshape(shape)
        v = nn.Dense(embed)(x).reshape(shape)

        # tied row attention sums over the rows, hence the extra 1/sqrt(rows)
        q = q * (head_dim**-0.5) / math.sqrt(rows)

        if padding_mask is not None:
            # zero the padded query positions: (B, R, C) -> (R, C, B, 1, 1)
            q_mask = jnp.transpose(padding_mask, (1, 2, 0))[..., None, None]
            q = q * (1 - q_mask)

        scores = jnp.einsum("rinhd,rjnhd->hnij", q, k)  # (H, B, C, C)
        if padding_mask is not None:
            # (B, R, C) -> first row -> (1, B, 1, C)
            key_mask = jnp.expand_dims(padding_mask[:, 0, :], axis=(0, 2))
            key_mask = jnp.broadcast_to(key_mask, scores.shape)
            scores = jnp.where(key_mask, scores, jnp.full(scores.shape, -10000.0))  # expect: ATT002

        probs = nn.softmax(scores, axis=-1)
        probs = nn.Dropout(rate=cfg.attention_dropout)(probs, deterministic=deterministic)
        context = jnp.einsum("hnij,rjnhd->rinhd", probs, v).reshape(rows, cols, batch, embed)
        return nn.Dense(embed)(context)
