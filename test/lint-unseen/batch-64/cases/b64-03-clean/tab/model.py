import torch
import torch.nn as nn

from tab.attention import TokenAttention


class Block(nn.Module):
    def __init__(self, dim, heads, k_proj, v_proj, dropout):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = TokenAttention(dim, heads, dropout, k_proj=k_proj, v_proj=v_proj)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class PriceTransformer(nn.Module):
    """Feature tokens plus a CLS token; Linformer-style compressors shared by all layers."""

    def __init__(self, num_features, dim=64, heads=4, depth=3, compressed=8, dropout=0.1):
        super().__init__()
        num_tokens = num_features + 1
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.embed = nn.Linear(1, dim)
        self.feature_bias = nn.Parameter(torch.zeros(num_features, dim))
        k_proj = nn.Linear(num_tokens, compressed, bias=False)
        v_proj = nn.Linear(num_tokens, compressed, bias=False)
        self.blocks = nn.ModuleList(Block(dim, heads, k_proj, v_proj, dropout) for _ in range(depth))
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 1))

    def forward(self, features):
        tokens = self.embed(features.unsqueeze(-1)) + self.feature_bias
        x = torch.cat([self.cls.expand(features.size(0), -1, -1), tokens], dim=1)
        for block in self.blocks:
            x = block(x)
        return self.head(x[:, 0]).squeeze(-1)
