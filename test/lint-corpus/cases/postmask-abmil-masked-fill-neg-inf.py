# case: postmask-abmil-masked-fill-neg-inf
# modelled-on: georg-wolflein/good-features https://github.com/georg-wolflein/good-features/pull/1
# label: correct
# pattern: the merged fix: padded tiles get -inf with masked_fill(~mask, -inf) before the softmax over tiles (dim=1 of (B, N)); every bag has at least one tile
# why: the keep mask is inverted at the fill; additive MIL attention has no 1/sqrt(d); dim 1 is the tile axis; no bag is empty so no row is all -inf
# looks-like: ATT001, ATT002, ATT003, ATT007
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedAttentionMIL(nn.Module):
    def __init__(self, d_features: int, d_attention: int = 128, n_classes: int = 2):
        super().__init__()
        self.attention_V = nn.Sequential(nn.Linear(d_features, d_attention), nn.Tanh())
        self.attention_U = nn.Sequential(nn.Linear(d_features, d_attention), nn.Sigmoid())
        self.attention_w = nn.Linear(d_attention, 1)
        self.classifier = nn.Linear(d_features, n_classes)

    def forward(self, feats: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # feats: (B, N, d); mask: (B, N) bool, True = real tile, at least one per bag
        if not bool(mask.any(dim=1).all()):
            raise ValueError("every bag in `mask` must contain at least one real tile")
        a = self.attention_w(self.attention_V(feats) * self.attention_U(feats)).squeeze(-1)  # (B, N)
        a = torch.masked_fill(a, ~mask, -torch.inf)
        a = F.softmax(a, dim=1)
        return self.classifier(torch.einsum("bn,bnd->bd", a, feats))
