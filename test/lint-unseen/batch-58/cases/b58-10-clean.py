# case: b58-10-clean
# modelled-on: KianSadat418/slsm-patch-classification https://github.com/KianSadat418/slsm-patch-classification/commit/bcfed44128404e445ff8fb0a239e614b717a3593
# label: correct
# class: clean
# pattern: a later, CLAM-style version of the biopsy MIL model working on precomputed patch features of one bag: the batch axis is squeezed away, a gated attention net (tanh branch times sigmoid branch) scores each of the N patches into (N, 1), the scores are transposed to (1, N) and normalised with softmax(dim=1); the bag vector is torch.mm of the (1, N) weights with the (N, 512) features, and an instance branch takes the top-k and bottom-k patches by attention weight for a smooth-SVM instance loss
# why: correct: after transpose(1, 0) dim=1 is the patch axis of a 2-D (1, N) tensor, so softmax(dim=1) normalises over the instances of the bag (dim=0 has length 1); each call sees one unpadded bag, so there is nothing to mask; the scores come from an additive gated MLP, not from a dot product, so there is no 1/sqrt(d) to apply
# looks-like: ATT001, ATT003
# source: https://github.com/KianSadat418/slsm-patch-classification https://github.com/KianSadat418/slsm-patch-classification/commit/bcfed44128404e445ff8fb0a239e614b717a3593 src/model_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from topk.svm import SmoothTop1SVM


class GatedScorer(nn.Module):
    def __init__(self, width: int = 512, hidden: int = 256, drop: bool = True):
        super().__init__()
        self.tanh_branch = nn.Sequential(nn.Linear(width, hidden), nn.Tanh(), nn.Dropout(0.25) if drop else nn.Identity())
        self.gate_branch = nn.Sequential(nn.Linear(width, hidden), nn.Sigmoid(), nn.Dropout(0.25) if drop else nn.Identity())
        self.out = nn.Linear(hidden, 1)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:  # (N, width) -> (N, 1)
        return self.out(self.tanh_branch(feats) * self.gate_branch(feats))


class GatedBagClassifier(nn.Module):
    def __init__(self, in_width: int = 1024, width: int = 512, p_drop: float = 0.5, k_sample: int = 10):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_width, width), nn.ReLU(), nn.LayerNorm(width), nn.Dropout(0.25))
        self.scorer = GatedScorer(width)
        self.bag_head = nn.Sequential(nn.Dropout(p_drop), nn.Linear(width, 512), nn.ReLU(), nn.Dropout(p_drop), nn.Linear(512, 2))
        self.instance_head = nn.Linear(width, 2)
        self.instance_loss = SmoothTop1SVM(n_classes=2)
        self.k_sample = k_sample

    def _weights(self, feats: torch.Tensor) -> torch.Tensor:
        scores = self.scorer(feats).transpose(1, 0)  # (1, N)
        return F.softmax(scores, dim=1)

    def _instance_term(self, feats: torch.Tensor, weights: torch.Tensor, label: torch.Tensor) -> torch.Tensor:
        flat = weights.view(-1)
        k = min(self.k_sample, flat.numel() // 2)
        top = torch.topk(flat, k).indices
        low_vals, low = torch.topk(-flat, k)
        low = low[low_vals < 0]
        target = torch.full((k,), int(label.item()), dtype=torch.long, device=feats.device)
        loss = self.instance_loss(self.instance_head(feats[top]), target)
        loss = loss + self.instance_loss(self.instance_head(feats[low]), 1 - target[: low.numel()])
        return loss / 2.0

    def forward(self, bag: torch.Tensor, label: torch.Tensor = None, instance_eval: bool = False):
        feats = self.embed(bag.squeeze(0))  # (1, N, in_width) -> (N, width)
        weights = self._weights(feats)
        inst = torch.tensor(0.0, device=feats.device)
        if instance_eval and label is not None:
            inst = self._instance_term(feats, weights, label)
        pooled = torch.mm(weights, feats)  # (1, width)
        return self.bag_head(pooled), weights, inst
