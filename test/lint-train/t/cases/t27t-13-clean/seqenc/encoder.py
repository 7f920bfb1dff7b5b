from typing import Dict, Optional

import torch
from torch import nn

from seqenc.attention import CausalSelfAttention
from seqenc.masked_tensor import create_masked_tensor


class Block(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads, dropout)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        if mask is None:
            mask = torch.ones(x.shape[:2], dtype=torch.bool, device=x.device)  # everything valid
        x = x + self.dropout(self.attn(self.ln1(x), mask))
        return x + self.dropout(self.mlp(self.ln2(x)))


class UserEncoder(nn.Module):
    def __init__(self, num_items: int, dim: int, max_seq_len: int = 100, n_layers: int = 2, n_heads: int = 2):
        super().__init__()
        self.item_embeddings = nn.Embedding(num_items, dim)
        self.pos_embedding = nn.Embedding(max_seq_len, dim)
        self.blocks = nn.ModuleList([Block(dim, n_heads, 0.1) for _ in range(n_layers)])
        self.ln = nn.LayerNorm(dim)

    def forward(self, inputs: Dict[str, torch.Tensor]) -> torch.Tensor:
        emb = self.item_embeddings(inputs["history"])                      # (total, D)
        padded, mask = create_masked_tensor(emb, inputs["length"])         # (B, S, D), (B, S) True = valid
        padded = padded + self.pos_embedding(torch.arange(padded.shape[1], device=padded.device))[None]
        padded[~mask] = 0
        out = padded
        for block in self.blocks:
            out = block(out, mask)
        return self.ln(out)[mask]                                          # the valid positions, flattened
