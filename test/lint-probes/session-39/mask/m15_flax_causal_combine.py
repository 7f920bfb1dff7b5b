import flax.linen as nn


class Decoder(nn.Module):
    d: int = 128

    @nn.compact
    def __call__(self, ids):
        x = nn.Embed(1000, self.d)(ids)
        causal = nn.make_causal_mask(ids)  # (B, 1, S, S) True on and below the diagonal
        pad = nn.make_attention_mask(ids != 0, ids != 0)
        mask = nn.combine_masks(causal, pad)  # logical and
        return nn.SelfAttention(num_heads=4)(x, mask=mask)
