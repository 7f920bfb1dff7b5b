import flax.linen as nn
import jax.numpy as jnp


class Encoder(nn.Module):
    d: int = 128
    heads: int = 4

    @nn.compact
    def __call__(self, ids):
        x = nn.Embed(1000, self.d)(ids)  # (B, S, d)
        mask = nn.make_attention_mask(ids > 0, ids > 0)  # (B, 1, S, S): True = attend
        return nn.MultiHeadDotProductAttention(num_heads=self.heads)(x, x, mask=mask)
