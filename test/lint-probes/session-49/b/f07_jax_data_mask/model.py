import flax.linen as nn


class Encoder(nn.Module):
    dim: int = 64

    @nn.compact
    def __call__(self, tokens, mask):
        x = nn.Embed(5000, self.dim)(tokens)
        q = nn.DenseGeneral((4, 16))(x)
        k = nn.DenseGeneral((4, 16))(x)
        v = nn.DenseGeneral((4, 16))(x)
        y = nn.dot_product_attention(q, k, v, mask=mask[:, None, None, :])
        return y.reshape(x.shape)
