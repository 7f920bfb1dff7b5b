from __future__ import annotations

import torch
import torch.nn as nn

from .masked_self_attention import MaskedSelfAttention


class CaptionDecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = MaskedSelfAttention(d_model, num_heads, dropout)
        self.cross_attn = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.cross_norm = nn.LayerNorm(d_model)

    def forward(self, text: torch.Tensor, visual: torch.Tensor, padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        text = self.self_attn(text, padding_mask=padding_mask)
        attended, _ = self.cross_attn(self.cross_norm(text), visual, visual, need_weights=False)
        text = text + attended
        return text + self.ffn(text)


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size: int, d_model: int = 512, num_heads: int = 4, num_layers: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList([CaptionDecoderLayer(d_model, num_heads) for _ in range(num_layers)])
        self.head = nn.Linear(d_model, vocab_size)

    def forward(self, caption_ids: torch.Tensor, visual: torch.Tensor, padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        x = self.embed(caption_ids)
        for layer in self.layers:
            x = layer(x, visual, padding_mask=padding_mask)
        return self.head(x)
