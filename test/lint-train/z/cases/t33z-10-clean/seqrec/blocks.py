import torch
import torch.nn as nn


class CausalBlock(nn.Module):
    """Pre-norm block; attn_mask is a float (L, L) mask with -inf above the diagonal."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout, batch_first=True)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(embed_dim, embed_dim), nn.Dropout(dropout))

    def forward(self, x: torch.Tensor, attn_mask: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        out, _ = self.attn(h, h, h, attn_mask=attn_mask)
        x = x + out
        return x + self.ffn(self.norm2(x))


class BidirectionalBlock(nn.Module):
    """Pre-norm block; key_padding_mask is (B, L) bool, True at padding."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float):
        super().__init__()
        self.norm1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout, batch_first=True)
        self.norm2 = nn.LayerNorm(embed_dim)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.GELU(), nn.Dropout(dropout),
                                 nn.Linear(embed_dim, embed_dim), nn.Dropout(dropout))

    def forward(self, x, key_padding_mask=None):
        h = self.norm1(x)
        out, _ = self.attn(h, h, h, key_padding_mask=key_padding_mask)
        x = x + out
        return x + self.ffn(self.norm2(x))
