# case: postmask-abmil-scores-times-mask
# modelled-on: georg-wolflein/good-features https://github.com/georg-wolflein/good-features/pull/1
# label: buggy
# pattern: gated attention-based MIL pooling over a padded bag of tile features: the (B, N) attention logits are multiplied by the 0/1 bag mask and then softmaxed over the tiles
# why: multiplying by 0 sets padded logits to 0, not -inf, and exp(0) = 1, so padded tiles still get weight; it only looked right with batch size 1
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
        # feats: (B, N, d_features) tiles padded to N; mask: (B, N) bool, True = real tile
        a = self.attention_w(self.attention_V(feats) * self.attention_U(feats)).squeeze(-1)  # (B, N)
        a = a * mask  # expect: ATT006
        a = F.softmax(a, dim=1)  # over tiles
        slide = torch.einsum("bn,bnd->bd", a, feats)  # (B, d_features)
        return self.classifier(slide)
