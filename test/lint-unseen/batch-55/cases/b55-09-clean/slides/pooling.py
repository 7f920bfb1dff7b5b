# case: b55-09-clean
# modelled-on: ciarlokleeman-bit/Predicting-early-EGFR-TKI-treatment-response-with-weakly-supervised-multiple-instance-learning https://github.com/ciarlokleeman-bit/Predicting-early-EGFR-TKI-treatment-response-with-weakly-supervised-multiple-instance-learning/commit/3908c2146fc23ecd0ae8e6f379e07f78250612b3
# label: correct
# class: clean
# pattern: attention-based multiple-instance learning over the tiles of a patient's slides (a folder: the pooling module, whose masked softmax fills padded tiles with torch.finfo(dtype).min, takes the softmax over dim=1 of (batch, tiles) scores and multiplies the weights by the mask afterwards, used by a gated (tanh times sigmoid) and an ungated scorer and a bmm over the tiles; and the batching module, whose collate function pads the bags and sets the mask True on real tiles)
# why: correct: the collate mask is True = real tile and the fill uses ~mask, so padding is what is hidden; finfo(dtype).min is the most negative finite value of whatever dtype the scores have, so it masks in fp16 as in fp32; the scores are (batch, tiles), so dim=1 is the instance axis the bmm pools over; multiplying by the mask after the softmax only turns the already-vanishing padded weights into exact zeros (every bag has at least one tile), so the weights still sum to one; the scorer is an MLP, not a dot product, so no 1/sqrt(d) applies
# looks-like: ATT001, ATT002, ATT003, ATT006, ATT007
# source: https://github.com/ciarlokleeman-bit/Predicting-early-EGFR-TKI-treatment-response-with-weakly-supervised-multiple-instance-learning https://github.com/ciarlokleeman-bit/Predicting-early-EGFR-TKI-treatment-response-with-weakly-supervised-multiple-instance-learning/commit/3908c2146fc23ecd0ae8e6f379e07f78250612b3 深度学习运行代码/hemil/models/attention.py
from typing import Optional, Tuple

import torch
import torch.nn as nn


def softmax_over_tiles(scores: torch.Tensor, valid: Optional[torch.Tensor], dim: int = -1) -> torch.Tensor:
    if valid is None:
        return torch.softmax(scores, dim=dim)
    scores = scores.masked_fill(~valid, torch.finfo(scores.dtype).min)
    weights = torch.softmax(scores, dim=dim)
    return weights * valid.to(weights.dtype)


class GatedTilePool(nn.Module):
    """Ilse et al.: a_i proportional to exp(w . (tanh(V h_i) * sigmoid(U h_i)))."""

    def __init__(self, in_dim: int = 2048, hidden: int = 256, bias: bool = False) -> None:
        super().__init__()
        self.V = nn.Linear(in_dim, hidden, bias=bias)
        self.U = nn.Linear(in_dim, hidden, bias=bias)
        self.w = nn.Linear(hidden, 1, bias=False)

    def scores(self, h: torch.Tensor) -> torch.Tensor:
        return self.w(torch.tanh(self.V(h)) * torch.sigmoid(self.U(h))).squeeze(-1)

    def forward(self, h: torch.Tensor, valid: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        a = softmax_over_tiles(self.scores(h), valid, dim=1)
        return torch.bmm(a.unsqueeze(1), h).squeeze(1), a


class PlainTilePool(GatedTilePool):
    """The same pooling without the sigmoid gate."""

    def scores(self, h: torch.Tensor) -> torch.Tensor:
        return self.w(torch.tanh(self.V(h))).squeeze(-1)


class SlideClassifier(nn.Module):
    def __init__(self, in_dim: int = 2048, hidden: int = 256, gated: bool = True, dropout: float = 0.25) -> None:
        super().__init__()
        self.pool = GatedTilePool(in_dim, hidden) if gated else PlainTilePool(in_dim, hidden)
        self.head = nn.Sequential(nn.Dropout(dropout), nn.Linear(in_dim, 1))

    def forward(self, batch):
        z, a = self.pool(batch["features"], batch["valid"])
        return self.head(z).squeeze(-1), a
