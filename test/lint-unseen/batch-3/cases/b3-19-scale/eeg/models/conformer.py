"""A convolution + transformer EEG decoder: patches from a shallow conv net, then self-attention blocks."""
from torch import nn

from ..modules.attention import MultiHeadAttention


class ResidualAdd(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return x + self.fn(x)


class TransformerEncoder(nn.Sequential):
    def __init__(self, depth, emb_size=40, num_heads=10, att_drop=0.5, forward_expansion=4):
        super().__init__(
            *[
                nn.Sequential(
                    ResidualAdd(nn.Sequential(nn.LayerNorm(emb_size), MultiHeadAttention(emb_size, num_heads, att_drop), nn.Dropout(att_drop))),
                    ResidualAdd(
                        nn.Sequential(
                            nn.LayerNorm(emb_size),
                            nn.Linear(emb_size, forward_expansion * emb_size),
                            nn.GELU(),
                            nn.Linear(forward_expansion * emb_size, emb_size),
                        )
                    ),
                )
                for _ in range(depth)
            ]
        )
