from typing import Optional

from flax import linen as nn

from efficient import EfficientMultiHeadAttention


class EfficientEncoderLayer(nn.Module):
    n_heads: int = 4
    d_model: int = 256
    ff_size: int = 2048
    kernel: str = "softmax"
    dropout: Optional[float] = None

    @nn.compact
    def __call__(self, src, src_padding_mask=None):
        # src [B, L, D]; src_padding_mask [B, L], True at padding
        x = nn.LayerNorm()(src)
        x = EfficientMultiHeadAttention(self.d_model, self.n_heads, self.kernel)(x, mask=src_padding_mask) + src
        y = nn.relu(nn.Dense(self.ff_size)(nn.LayerNorm()(x)))
        if self.dropout is not None:
            y = nn.Dropout(rate=self.dropout, deterministic=True)(y)
        return nn.Dense(self.d_model)(y) + x
