import flax.linen as nn

from attention_fns import scaled_attention


class MultiHeadSelfAttention(nn.Module):
    num_heads: int
    head_dim: int

    @nn.compact
    def __call__(self, x, mask=None):
        proj = lambda name: nn.DenseGeneral((self.num_heads, self.head_dim), name=name)
        q, k, v = proj("q")(x), proj("k")(x), proj("v")(x)
        y = scaled_attention(q, k, v, mask)
        return nn.DenseGeneral(x.shape[-1], axis=(-2, -1), name="o")(y)
