# case: t43cc-20-clean
# modelled-on: paultsoi1014/Tabular-Transformer https://github.com/paultsoi1014/Tabular-Transformer/commit/09926b15b9a49088bd7a0b399ebfd247901b94c8
# label: correct
# class: clean
# pattern: TabTransformer's categorical encoder: each categorical column is embedded with its own table (base module) and the per-column embeddings are stacked into a (B, n_columns, E) sequence for `nn.TransformerEncoder` of `nn.TransformerEncoderLayer(batch_first=True, norm_first=True)` with no mask at all; the output is flattened and concatenated with layer-normalised numerical features for an MLP head; the classifier applies `torch.softmax(predictions, dim=1)` to (B, classes) logits
# why: correct: the "tokens" are the table's columns, every row has one entry per categorical column, so the sequence length is fixed and there is nothing to pad and no order to make causal; attention among all columns is the design; the softmax over dim=1 of (B, classes) logits is over the classes
# looks-like: ATT001, ATT002, ATT008
# source: https://github.com/paultsoi1014/Tabular-Transformer https://github.com/paultsoi1014/Tabular-Transformer/commit/09926b15b9a49088bd7a0b399ebfd247901b94c8 transformer/models/tab_transformer.py
from typing import Dict

import torch
import torch.nn as nn


class ColumnEmbedding(nn.Module):
    def __init__(self, vocabulary: Dict[str, Dict[str, int]], embedding_dim: int):
        super().__init__()
        self.embedding = nn.ModuleDict({column: nn.Embedding(len(vocab), embedding_dim) for column, vocab in vocabulary.items()})

    def forward(self, x: torch.Tensor, column: str) -> torch.Tensor:
        return self.embedding[column](x)


class CategoricalEncoder(nn.Module):
    def __init__(self, vocabulary, embedding_dim, n_heads, n_layers, activation="gelu", dim_feedforward=256, dropout=0.1):
        super().__init__()
        self.vocabulary = vocabulary
        layer = nn.TransformerEncoderLayer(
            d_model=embedding_dim,
            nhead=n_heads,
            dim_feedforward=dim_feedforward,
            dropout=dropout,
            activation=activation,
            batch_first=True,
            norm_first=True,
        )
        self.columns = ColumnEmbedding(vocabulary, embedding_dim)
        self.encoder = nn.TransformerEncoder(layer, num_layers=n_layers, norm=nn.LayerNorm([embedding_dim]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = x.size(0)
        tokens = torch.stack([self.columns(x[:, i], col) for i, col in enumerate(self.vocabulary)], dim=1)
        return self.encoder(tokens).view(b, -1)


class TabTransformer(nn.Module):
    def __init__(self, vocabulary, n_numerical, embedding_dim=32, n_heads=8, n_layers=6, hidden=128, output_dim=2):
        super().__init__()
        self.categorical = CategoricalEncoder(vocabulary, embedding_dim, n_heads, n_layers)
        self.numerical = nn.LayerNorm([n_numerical])
        self.head = nn.Sequential(
            nn.Linear(embedding_dim * len(vocabulary) + n_numerical, hidden), nn.ReLU(), nn.Linear(hidden, output_dim)
        )

    def forward(self, x_cat: torch.Tensor, x_num: torch.Tensor) -> torch.Tensor:
        return self.head(torch.cat([self.categorical(x_cat), self.numerical(x_num)], dim=1))


@torch.no_grad()
def predict_proba(model: TabTransformer, x_cat, x_num):
    return torch.softmax(model(x_cat, x_num), dim=1)
