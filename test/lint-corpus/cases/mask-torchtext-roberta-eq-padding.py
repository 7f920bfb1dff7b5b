# case: mask-torchtext-roberta-eq-padding
# modelled-on: pytorch/text https://github.com/pytorch/text/pull/1435
# label: correct
# pattern: a RoBERTa-style encoder computes padding_mask = tokens.eq(padding_idx) once and threads it through every layer as nn.MultiheadAttention's key_padding_mask, with an optional float attn_mask
# why: tokens.eq(padding_idx) is True at padding, which is what key_padding_mask ignores
# looks-like: ATT002
from typing import Optional

import torch
from torch import nn


class TransformerEncoderLayer(nn.Module):
    def __init__(self, embedding_dim: int, num_attention_heads: int, ffn_dimension: int, dropout: float = 0.1):
        super().__init__()
        self.attention = nn.MultiheadAttention(embedding_dim, num_attention_heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(embedding_dim, ffn_dimension), nn.GELU(), nn.Linear(ffn_dimension, embedding_dim))
        self.attention_layer_norm = nn.LayerNorm(embedding_dim)
        self.final_layer_norm = nn.LayerNorm(embedding_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor, attn_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        if attn_mask is not None:
            torch._assert(attn_mask.dim() == 2, f"Expected attn_mask of dim 2 but got {attn_mask.dim()}")
        residual = x
        x, _ = self.attention(x, x, x, key_padding_mask=key_padding_mask, attn_mask=attn_mask, need_weights=False)
        x = self.attention_layer_norm(residual + self.dropout(x))
        return self.final_layer_norm(x + self.dropout(self.ffn(x)))


class RobertaEncoder(nn.Module):
    def __init__(self, vocab_size: int, embedding_dim: int, num_layers: int, num_heads: int, ffn_dimension: int, padding_idx: int = 1, max_seq_len: int = 514):
        super().__init__()
        self.padding_idx = padding_idx
        self.token_embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx)
        self.positional_embedding = nn.Embedding(max_seq_len, embedding_dim, padding_idx)
        self.layers = nn.ModuleList(
            [TransformerEncoderLayer(embedding_dim, num_heads, ffn_dimension) for _ in range(num_layers)]
        )

    def forward(self, tokens: torch.Tensor, attn_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        padding_mask = tokens.eq(self.padding_idx)  # (B, S), True at padding
        positions = torch.cumsum(~padding_mask, dim=1) * ~padding_mask + self.padding_idx
        x = self.token_embedding(tokens) + self.positional_embedding(positions)
        x = x * (1 - padding_mask.unsqueeze(-1).type_as(x))
        for layer in self.layers:
            x = layer(x, padding_mask, attn_mask)
        return x
