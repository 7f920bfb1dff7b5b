import torch
import torch.nn as nn

from pst.attention import VectorAttention


class SetEncoderLayer(nn.Module):
    def __init__(self, dim, attn_dropout=0.0, act=nn.Mish):
        super().__init__()
        self.attn = VectorAttention(dim, attn_dropout=attn_dropout)
        self.out = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, dim), act())

    def forward(self, x, occupancy):
        h = x + self.out(self.attn(self.norm(x), occupancy))
        return self.norm(h + self.ffn(self.norm(h)))


class PeriodicSetEncoder(nn.Module):
    def __init__(self, n_features, dim, n_layers=3):
        super().__init__()
        self.embed = nn.Linear(n_features - 1, dim)
        self.layers = nn.ModuleList([SetEncoderLayer(dim) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, rows):
        # rows: (B, N, F), zero-padded sets; column 0 is the element's occupancy weight, the rest its distances
        occupancy = rows[:, :, 0, None]
        x = self.embed(rows[:, :, 1:])
        x0 = x
        for layer in self.layers:
            x = layer(x, occupancy)
        pooled = torch.sum(occupancy * (x + x0), dim=1)  # weighted pooling
        return self.head(self.norm(pooled))
