import flax.linen as nn
import jax.numpy as jnp


class Decoder(nn.Module):
    dim: int = 128
    heads: int = 4

    @nn.compact
    def __call__(self, tokens):
        x = nn.Embed(1000, self.dim)(tokens)
        pad = nn.make_attention_mask(tokens > 0, tokens > 0)
        causal = nn.make_causal_mask(tokens)
        mask = nn.combine_masks(pad, causal)
        x = nn.MultiHeadDotProductAttention(num_heads=self.heads)(x, x, mask=mask)
        return nn.Dense(1000)(x)
