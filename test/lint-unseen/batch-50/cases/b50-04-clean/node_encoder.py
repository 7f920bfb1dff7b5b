import math

import torch
import torch.nn as nn

N_FREQ = 3
COORD_FEATS = 2 + 4 * N_FREQ  # raw x, y and sin/cos of each at N_FREQ frequencies
NODE_FEATS = COORD_FEATS + 2  # plus remaining demand and spare load


def fourier_features(xy: torch.Tensor) -> torch.Tensor:
    freqs = math.pi * 2.0 ** torch.arange(N_FREQ, dtype=xy.dtype, device=xy.device)
    fx = xy[..., :1] * freqs
    fy = xy[..., 1:] * freqs
    return torch.cat([xy, fx.sin(), fx.cos(), fy.sin(), fy.cos()], dim=-1)


class GraphNodeEncoder(nn.Module):
    """Projects per-node features and contextualises them with a pre-norm encoder stack."""

    def __init__(self, width=128, heads=8, depth=3, ff=512, dropout=0.1):
        super().__init__()
        self.inp = nn.Linear(NODE_FEATS, width)
        block = nn.TransformerEncoderLayer(
            d_model=width, nhead=heads, dim_feedforward=ff, dropout=dropout,
            activation="gelu", batch_first=True, norm_first=True,
        )
        self.stack = nn.TransformerEncoder(block, num_layers=depth, norm=nn.LayerNorm(width))

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.stack(self.inp(feats))
