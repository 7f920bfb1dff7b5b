# case: b62-04-clean
# modelled-on: bokyoung96/PriceTrends https://github.com/bokyoung96/PriceTrends/commit/4253458ff432999398b1a3c460ecd2c807744eeb
# label: correct
# class: clean
# pattern: a stock up/down classifier on look-back windows of daily technical features (a folder: `windows.py` cuts fixed-length windows, drops any window with a gap and yields dicts with only "input" and "label"); a variable selection network turns each of the n features into a d_model vector with its own gated residual network and weighs them with `nn.Softmax(dim=-1)` over a (B, T, n_features) gate, the weighted vectors are summed over the feature axis (dim=2), learned positions are added, and a batch-first pre-norm nn.TransformerEncoder runs with `src_key_padding_mask=batch.get("mask")`, then mean pooling over time and a linear head
# why: correct: the selection weights are a distribution over the n features at each time step, so the softmax over the last axis of the (B, T, n) gate is the intended one, and they are applied to the stacked (B, T, n, d) tensor by unsqueezing the last axis and summing over dim=2, the same feature axis; windows are never padded (incomplete ones are dropped), the loader yields no mask, so the encoder gets None and attends over every day, and mean pooling over time is exact; nn.TransformerEncoder scales its own attention
# looks-like: ATT001, ATT002
# source: https://github.com/bokyoung96/PriceTrends https://github.com/bokyoung96/PriceTrends/commit/4253458ff432999398b1a3c460ecd2c807744eeb transformer/model.py
from typing import Dict, Optional

import torch
import torch.nn as nn


class GatedResidual(nn.Module):
    def __init__(self, d_in: int, d_hid: int, d_out: int, drop: float = 0.1):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hid)
        self.fc2 = nn.Linear(d_hid, d_out)
        self.gate = nn.Linear(d_out, 2 * d_out)
        self.drop = nn.Dropout(drop)
        self.norm = nn.LayerNorm(d_out)
        self.skip = nn.Linear(d_in, d_out) if d_in != d_out else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.drop(self.fc2(nn.functional.elu(self.fc1(x))))
        val, g = self.gate(h).chunk(2, dim=-1)
        return self.norm(self.skip(x) + val * torch.sigmoid(g))


class FeatureSelection(nn.Module):
    """Per-feature embeddings mixed by softmax weights over the features."""

    def __init__(self, n_features: int, d_model: int, drop: float = 0.1):
        super().__init__()
        self.n = n_features
        self.per_feature = nn.ModuleList(GatedResidual(1, d_model, d_model, drop) for _ in range(n_features))
        self.weights = GatedResidual(n_features, d_model, n_features, drop)
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w = self.softmax(self.weights(x)).unsqueeze(-1)
        embedded = torch.stack([self.per_feature[i](x[..., i : i + 1]) for i in range(self.n)], dim=2)
        return (embedded * w).sum(dim=2)


class TrendTransformer(nn.Module):
    def __init__(self, n_features: int, d_model: int = 128, heads: int = 4, layers: int = 4, d_ff: int = 256,
                 drop: float = 0.1, n_classes: int = 2, max_len: int = 512):
        super().__init__()
        self.select = FeatureSelection(n_features, d_model, drop)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d_model))
        nn.init.trunc_normal_(self.pos, std=0.02)
        block = nn.TransformerEncoderLayer(d_model, heads, d_ff, drop, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(block, num_layers=layers)
        self.post = GatedResidual(d_model, d_ff, d_model, drop)
        self.head = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, n_classes))

    def encode(self, x: torch.Tensor, pad_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        h = self.select(x) + self.pos[:, : x.size(1)]
        h = self.encoder(h, src_key_padding_mask=pad_mask)
        return self.post(h.mean(dim=1))

    def forward(self, batch: Dict[str, torch.Tensor]) -> torch.Tensor:
        return self.head(self.encode(batch["input"], pad_mask=batch.get("mask")))
