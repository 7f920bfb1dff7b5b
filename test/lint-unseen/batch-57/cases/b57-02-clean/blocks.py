"""Post-norm attention blocks used by every reasoning level."""
import torch
from torch import nn


def feed_forward(dim: int, p: float) -> nn.Sequential:
    return nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Dropout(p), nn.Linear(4 * dim, dim), nn.Dropout(p))


class AgentSelfBlock(nn.Module):
    def __init__(self, dim: int = 256, heads: int = 8, p: float = 0.1):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, dropout=p, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = feed_forward(dim, p)

    def forward(self, x: torch.Tensor, ignore: torch.Tensor = None) -> torch.Tensor:
        h, _ = self.mha(x, x, x, key_padding_mask=ignore)
        h = self.ln1(h + x)
        return self.ln2(h + self.mlp(h))


class QueryCrossBlock(nn.Module):
    def __init__(self, dim: int = 256, heads: int = 8, p: float = 0.1):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, dropout=p, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.mlp = feed_forward(dim, p)

    def forward(self, queries: torch.Tensor, memory: torch.Tensor, ignore: torch.Tensor = None) -> torch.Tensor:
        h, _ = self.mha(queries, memory, memory, key_padding_mask=ignore)
        h = self.ln1(h)
        return self.ln2(h + self.mlp(h))
