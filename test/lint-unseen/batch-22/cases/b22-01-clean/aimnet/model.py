# case: b22-01-clean
# modelled-on: ExodusNeo/cs2-trajectory-transformer https://github.com/ExodusNeo/cs2-trajectory-transformer/commit/7fca2bb676c2e7c975fc4480aa06f373c2796ec2
# label: correct
# class: clean
# pattern: a telemetry classifier whose collate function (collate.py) right-pads tick windows and returns attention_mask as a boolean keep mask (True = real tick); the model turns it into PyTorch's key-padding convention with ~attention_mask before a batch-first nn.TransformerEncoder, then pools with the keep mask as float weights
# why: correct: src_key_padding_mask is True where a key is ignored, and ~ of the keep mask is True exactly at the padded ticks; the pooling multiplies by the keep mask itself, which is the right polarity for a weighted mean
# looks-like: ATT002, ATT006
# source: https://github.com/ExodusNeo/cs2-trajectory-transformer https://github.com/ExodusNeo/cs2-trajectory-transformer/commit/7fca2bb676c2e7c975fc4480aa06f373c2796ec2 cs2-trajectory-transformer/src/models/st_transformer.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class SinusoidalPosition(nn.Module):
    def __init__(self, d_model: int, max_len: int = 4096):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.pe[:, : x.size(1)]


class AimTransformer(nn.Module):
    def __init__(self, n_features: int = 8, d_model: int = 128, nhead: int = 8, num_layers: int = 4, dropout: float = 0.1):
        super().__init__()
        self.proj = nn.Linear(n_features, d_model)
        self.norm_in = nn.LayerNorm(d_model)
        self.pos = SinusoidalPosition(d_model)
        layer = nn.TransformerEncoderLayer(
            d_model=d_model, nhead=nhead, dim_feedforward=4 * d_model, dropout=dropout, batch_first=True, activation="gelu"
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=num_layers)
        self.cheat_head = nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, 1), nn.Sigmoid())
        self.embed_head = nn.Linear(d_model, 32)

    def forward(self, x: torch.Tensor, attention_mask: Optional[torch.Tensor] = None):
        """x: (B, T, F); attention_mask: (B, T), True for real ticks, False for padding."""
        h = self.pos(self.norm_in(self.proj(x)))

        # PyTorch's key padding mask is True where a position is ignored
        key_padding_mask = ~attention_mask if attention_mask is not None else None
        h = self.encoder(h, src_key_padding_mask=key_padding_mask)

        if attention_mask is not None:
            w = attention_mask.unsqueeze(-1).float()
            pooled = (h * w).sum(dim=1) / w.sum(dim=1).clamp(min=1.0)
        else:
            pooled = h.mean(dim=1)

        prob = self.cheat_head(pooled)
        emb = F.normalize(self.embed_head(pooled), p=2, dim=-1)
        return prob, emb
