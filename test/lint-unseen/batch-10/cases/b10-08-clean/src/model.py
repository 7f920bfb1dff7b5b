from dataclasses import dataclass

import torch
import torch.nn as nn

from src.layers import TransformerBlock


@dataclass
class ModelConfig:
    vocab_size: int
    max_seq_len: int
    emb_dim: int = 128
    num_layers: int = 2
    num_heads: int = 2
    ffn_dim: int = 256


class MiniTransformer(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.tok = nn.Embedding(cfg.vocab_size, cfg.emb_dim)
        self.pos = nn.Parameter(torch.zeros(1, cfg.max_seq_len, cfg.emb_dim))
        self.blocks = nn.ModuleList(
            [TransformerBlock(cfg.emb_dim, cfg.num_heads, cfg.ffn_dim) for _ in range(cfg.num_layers)]
        )
        self.norm = nn.LayerNorm(cfg.emb_dim)
        self.out = nn.Linear(cfg.emb_dim, cfg.vocab_size)

    def forward(self, ids):
        x = self.tok(ids) + self.pos[:, : ids.size(1)]
        for block in self.blocks:
            x = block(x)
        return self.out(self.norm(x))
