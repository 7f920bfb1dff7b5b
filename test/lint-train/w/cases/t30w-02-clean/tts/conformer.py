"""Conformer blocks for the text encoder and the mel decoder of a FastSpeech2-style TTS model."""
import math

import torch
import torch.nn.functional as F
from torch import nn


class FeedForward(nn.Module):
    def __init__(self, dim: int, expansion: int = 4, dropout: float = 0.1) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * expansion), nn.SiLU(),
                                 nn.Dropout(dropout), nn.Linear(dim * expansion, dim), nn.Dropout(dropout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class SinusoidalPosition(nn.Module):
    def __init__(self, dim: int, max_len: int = 5000) -> None:
        super().__init__()
        pe = torch.zeros(max_len, dim)
        pos = torch.arange(max_len, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2).float() * (-math.log(10000.0) / dim))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.pe[:, : x.size(1)]


class SelfAttention(nn.Module):
    def __init__(self, dim: int, n_heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mha = nn.MultiheadAttention(dim, n_heads, dropout=dropout, batch_first=True)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        h = self.norm(x)
        out, _ = self.mha(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)
        return self.drop(out)


class ConvModule(nn.Module):
    def __init__(self, dim: int, kernel: int = 31, dropout: float = 0.1) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.pw1 = nn.Conv1d(dim, 2 * dim, 1)
        self.dw = nn.Conv1d(dim, dim, kernel, padding=kernel // 2, groups=dim)
        self.bn = nn.BatchNorm1d(dim)
        self.pw2 = nn.Conv1d(dim, dim, 1)
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.glu(self.pw1(self.norm(x).transpose(1, 2)), dim=1)
        h = self.pw2(F.silu(self.bn(self.dw(h))))
        return self.drop(h).transpose(1, 2)


class ConformerBlock(nn.Module):
    def __init__(self, dim: int, n_heads: int = 4, kernel: int = 31, dropout: float = 0.1) -> None:
        super().__init__()
        self.ff1 = FeedForward(dim, dropout=dropout)
        self.attn = SelfAttention(dim, n_heads, dropout)
        self.conv = ConvModule(dim, kernel, dropout)
        self.ff2 = FeedForward(dim, dropout=dropout)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        x = x + 0.5 * self.ff1(x)
        x = x + self.attn(x, key_padding_mask=key_padding_mask)
        x = x + self.conv(x)
        x = x + 0.5 * self.ff2(x)
        return self.norm(x)


class ConformerStack(nn.Module):
    def __init__(self, dim: int, n_layers: int = 4, n_heads: int = 4, kernel: int = 31, dropout: float = 0.1) -> None:
        super().__init__()
        self.pos = SinusoidalPosition(dim)
        self.blocks = nn.ModuleList([ConformerBlock(dim, n_heads, kernel, dropout) for _ in range(n_layers)])

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        x = self.pos(x)
        for block in self.blocks:
            x = block(x, key_padding_mask=key_padding_mask)
        return x
