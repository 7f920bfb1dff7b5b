# case: b31-01-clean
# modelled-on: Rajk054/sequential-recommendation-sasrec https://github.com/Rajk054/sequential-recommendation-sasrec/commit/5b5a8c6ce7d83ac315c926fa1e65c0ef72956a4d
# label: correct
# class: clean
# pattern: a sequential recommender (SASRec) beside two retrieval baselines: item ids (0 = padding) are embedded, scaled by sqrt(dim) and given learned positions, then run through a pre-norm nn.TransformerEncoder with a boolean causal mask (torch.triu of ones, diagonal=1) and a key padding mask built as sequences.eq(0); the last position's state is the query vector scored against the item table
# why: correct: nn.TransformerEncoder's boolean `mask` and `src_key_padding_mask` both mean True = not allowed to attend, so the strictly-upper triangle (future items) and the padded ids (eq(0)) are exactly the positions to block; the sqrt(dim) factor multiplies the item embeddings (the usual Transformer embedding scale), not the attention scores, which the encoder layer scales itself
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/Rajk054/sequential-recommendation-sasrec https://github.com/Rajk054/sequential-recommendation-sasrec/commit/5b5a8c6ce7d83ac315c926fa1e65c0ef72956a4d recsys/models.py
from __future__ import annotations

import math

import torch
from torch import nn


class TwoTower(nn.Module):
    """Non-sequential retrieval baseline whose towers can be cached separately."""

    def __init__(self, num_users: int, num_items: int, dim: int = 64):
        super().__init__()
        self.user_embedding = nn.Embedding(num_users + 1, dim)
        self.item_embedding = nn.Embedding(num_items + 1, dim, padding_idx=0)
        self.user_tower = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.item_tower = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def encode_users(self, users: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.user_tower(self.user_embedding(users)), dim=-1)

    def encode_items(self, items: torch.Tensor) -> torch.Tensor:
        return nn.functional.normalize(self.item_tower(self.item_embedding(items)), dim=-1)

    def forward(self, users: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
        return (self.encode_users(users) * self.encode_items(items)).sum(-1) * 10.0

    def score_all(self, users: torch.Tensor) -> torch.Tensor:
        items = torch.arange(self.item_embedding.num_embeddings, device=users.device)
        return self.encode_users(users) @ self.encode_items(items).T


class SASRec(nn.Module):
    def __init__(self, num_items: int, max_len: int = 100, dim: int = 64, heads: int = 2, layers: int = 2, dropout: float = 0.2):
        super().__init__()
        self.num_items, self.max_len, self.dim = num_items, max_len, dim
        self.item_embedding = nn.Embedding(num_items + 1, dim, padding_idx=0)
        self.position_embedding = nn.Embedding(max_len, dim)
        block = nn.TransformerEncoderLayer(
            dim, heads, dim * 4, dropout, batch_first=True, norm_first=True, activation="gelu"
        )
        self.encoder = nn.TransformerEncoder(block, layers)
        self.dropout = nn.Dropout(dropout)
        self.norm = nn.LayerNorm(dim)

    def encode(self, sequences: torch.Tensor) -> torch.Tensor:
        length = sequences.size(1)
        positions = torch.arange(length, device=sequences.device)
        hidden = self.item_embedding(sequences) * math.sqrt(self.dim) + self.position_embedding(positions)
        hidden = self.dropout(hidden)
        causal = torch.triu(
            torch.ones(length, length, device=sequences.device, dtype=torch.bool), diagonal=1
        )
        hidden = self.encoder(hidden, mask=causal, src_key_padding_mask=sequences.eq(0))
        return self.norm(hidden)

    def training_logits(self, sequences: torch.Tensor, positives: torch.Tensor, negatives: torch.Tensor):
        hidden = self.encode(sequences)
        pos = (hidden * self.item_embedding(positives)).sum(-1)
        neg = (hidden * self.item_embedding(negatives)).sum(-1)
        return pos, neg

    def query_vector(self, sequences: torch.Tensor) -> torch.Tensor:
        return self.encode(sequences)[:, -1]

    def score_all(self, sequences: torch.Tensor) -> torch.Tensor:
        return self.query_vector(sequences) @ self.item_embedding.weight.T
