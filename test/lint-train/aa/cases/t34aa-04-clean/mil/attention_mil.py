# case: t34aa-04-clean
# modelled-on: seongminkangtech/attention-mil-cancer-diagnosis https://github.com/seongminkangtech/attention-mil-cancer-diagnosis/commit/28fa8540fedc559f4dbc7790b80b602a864f8473
# label: correct
# class: clean
# pattern: attention-based multiple-instance learning over the tiles of a medical image: a backbone from another module encodes every tile, the features are viewed as (batch, tiles, feature_dim), an MLP Linear -> Tanh -> Linear(hidden, 1) gives one score per tile, F.softmax(scores, dim=1) normalises over the tiles, and the bag vector is the weighted sum over dim 1; a second method returns the weights squeezed to (batch, tiles) for visualisation
# why: correct: dim=1 of the (batch, tiles, 1) scores is the tile axis (the instances of the bag), not the length-1 axis, and the weighted sum is over the same axis; Ilse et al.'s attention pooling uses additive tanh scores with no 1/sqrt(d) scale; every bag has the same number of tiles, so there is no padding to mask
# looks-like: ATT001, ATT003
# source: https://github.com/seongminkangtech/attention-mil-cancer-diagnosis https://github.com/seongminkangtech/attention-mil-cancer-diagnosis/commit/28fa8540fedc559f4dbc7790b80b602a864f8473 src/models/attention_mil.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from mil.feature_extractor import TileEncoder


class AttentionMIL(nn.Module):
    """Classifies a bag of image tiles from an attention-weighted mean of their features."""

    def __init__(self, num_classes: int, encoder: TileEncoder, hidden: int = 128, dropout: float = 0.2):
        super().__init__()
        self.encoder = encoder
        self.feature_dim = encoder.get_feature_dim()
        self.scorer = nn.Sequential(
            nn.Linear(self.feature_dim, hidden),
            nn.Tanh(),
            nn.Linear(hidden, 1),
        )
        self.head = nn.Linear(self.feature_dim, num_classes)
        self.dropout = nn.Dropout(dropout)

    def tile_features(self, bags: torch.Tensor) -> torch.Tensor:
        if bags.dim() != 5:
            raise ValueError(f"expected (B, tiles, C, H, W), got {bags.dim()} dims")
        b, n, c, h, w = bags.size()
        feats = self.encoder(bags.view(-1, c, h, w))  # (B * tiles, feature_dim)
        return feats.view(b, n, -1)  # (B, tiles, feature_dim)

    def forward(self, bags: torch.Tensor) -> torch.Tensor:
        feats = self.tile_features(bags)
        scores = self.scorer(feats)  # (B, tiles, 1)
        weights = F.softmax(scores, dim=1)
        pooled = torch.sum(feats * weights, dim=1)  # (B, feature_dim)
        pooled = F.relu(self.dropout(pooled))
        return self.head(pooled)

    def attention_map(self, bags: torch.Tensor) -> torch.Tensor:
        feats = self.tile_features(bags)
        weights = F.softmax(self.scorer(feats), dim=1)
        return weights.squeeze(-1)  # (B, tiles)
