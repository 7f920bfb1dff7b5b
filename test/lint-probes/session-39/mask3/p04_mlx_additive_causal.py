import mlx.core as mx
import mlx.nn as nn


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiHeadAttention(d, h)

    def __call__(self, x):
        T = x.shape[1]
        mask = nn.MultiHeadAttention.create_additive_causal_mask(T)  # 0 / -1e9 additive
        return self.attn(x, x, x, mask=mask)
