from typing import Optional

import torch
import torch.nn as nn

from .masks import create_decoder_mask, create_padding_mask
from .multi_head_attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])

    def forward(self, x, memory, tgt_mask, memory_mask):
        x = self.norms[0](x + self.self_attn(x, x, x, tgt_mask))
        x = self.norms[1](x + self.cross_attn(x, memory, memory, memory_mask))
        return self.norms[2](x + self.ff(x))


class Translator(nn.Module):
    def __init__(self, encoder: nn.Module, decoder_layers: nn.ModuleList, src_embed, tgt_embed, generator, pad_id: int):
        super().__init__()
        self.encoder = encoder
        self.decoder_layers = decoder_layers
        self.src_embed, self.tgt_embed, self.generator = src_embed, tgt_embed, generator
        self.pad_id = pad_id

    def forward(self, src, tgt, src_mask: Optional[torch.Tensor] = None, tgt_mask: Optional[torch.Tensor] = None):
        if src_mask is None:
            src_mask = create_padding_mask(src, self.pad_id)
        if tgt_mask is None:
            tgt_mask = create_decoder_mask(tgt, self.pad_id, device=tgt.device)
        memory = self.encoder(self.src_embed(src), src_mask)
        x = self.tgt_embed(tgt)
        for layer in self.decoder_layers:
            x = layer(x, memory, tgt_mask, src_mask)
        return self.generator(x)
