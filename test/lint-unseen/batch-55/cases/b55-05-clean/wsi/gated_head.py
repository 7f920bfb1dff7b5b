# case: b55-05-clean
# modelled-on: DIAGNijmegen/pathology-abmil-core https://github.com/DIAGNijmegen/pathology-abmil-core/commit/3decbe48d0361e97974309e868e8a68f7749738f
# label: correct
# class: clean
# pattern: attention-based multiple-instance learning over the patches of a whole-slide image (a folder: the single-branch head, whose gated attention net scores each of the N patch features into an (N, 1) column, transposes it to (1, N) and takes softmax(dim=1), then pools the patches with torch.mm(weights, features); and the additive classifier in another file, which receives the weights transposed back to (N, 1) and multiplies them into the patch features before scoring and summing)
# why: correct: after the transpose the scores are (1, N), so dim=1 is the patch axis, the bag's instances, as in the ABMIL and CLAM papers; the mm pools over the same axis; a bag has no padding, so no mask is needed; the gated scorer is an MLP (tanh times sigmoid), not a dot product, so no 1/sqrt(d) scale applies; the product in the additive head weights features by attention after the softmax on purpose (it is not masking)
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/DIAGNijmegen/pathology-abmil-core https://github.com/DIAGNijmegen/pathology-abmil-core/commit/3decbe48d0361e97974309e868e8a68f7749738f models/attentionhead.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from .additive import AdditiveHead


def xavier_init(m: nn.Module) -> None:
    if isinstance(m, nn.Linear):
        nn.init.xavier_normal_(m.weight)
        nn.init.zeros_(m.bias)


class GatedScorer(nn.Module):
    """tanh branch times sigmoid branch, then one score per branch for every patch."""

    def __init__(self, in_dim: int = 512, hidden: int = 256, dropout: bool = False, branches: int = 1):
        super().__init__()
        tanh_part = [nn.Linear(in_dim, hidden), nn.Tanh()]
        gate_part = [nn.Linear(in_dim, hidden), nn.Sigmoid()]
        if dropout:
            tanh_part.append(nn.Dropout(0.25))
            gate_part.append(nn.Dropout(0.25))
        self.tanh_part = nn.Sequential(*tanh_part)
        self.gate_part = nn.Sequential(*gate_part)
        self.score = nn.Linear(hidden, branches)

    def forward(self, h: torch.Tensor):
        return self.score(self.tanh_part(h) * self.gate_part(h)), h


class SlideHead(nn.Module):
    SIZES = {"small": (512, 256), "big": (512, 384)}

    def __init__(self, embed_dim: int = 1024, size: str = "small", dropout: bool = False, n_classes: int = 2, additive: bool = False):
        super().__init__()
        width, hidden = self.SIZES[size]
        layers = [nn.Linear(embed_dim, width), nn.ReLU()]
        if dropout:
            layers.append(nn.Dropout(0.25))
        layers.append(GatedScorer(width, hidden, dropout, branches=1))
        self.attention_net = nn.Sequential(*layers)
        self.bag_classifier = nn.Linear(width, n_classes)
        self.additive = AdditiveHead(width, n_classes) if additive else None
        self.apply(xavier_init)

    def attend(self, patches: torch.Tensor):
        scores, h = self.attention_net(patches)
        scores = torch.transpose(scores, 1, 0)
        weights = F.softmax(scores, dim=1)
        return h, scores, weights

    def forward(self, patches: torch.Tensor):
        if patches.ndim > 2 and patches.shape[0] == 1:
            patches = patches.squeeze(0)
        h, raw, weights = self.attend(patches)
        pooled = torch.mm(weights, h)
        pooled_logits = self.bag_classifier(pooled)
        out = {"attention": raw}
        if self.additive is None:
            return pooled_logits, raw, out
        add = self.additive(h, weights.transpose(0, 1))
        out.update(patch_logits=add["patch_logits"], att_pool_logits=pooled_logits)
        return add["logits"], raw, out
