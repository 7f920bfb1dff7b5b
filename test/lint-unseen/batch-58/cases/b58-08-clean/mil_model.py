# case: b58-08-clean
# modelled-on: KianSadat418/slsm-patch-classification https://github.com/KianSadat418/slsm-patch-classification/commit/610a98b52c9a4850ae48f7745c69b99dfe9959c1
# label: correct
# class: clean
# pattern: attention-based multiple-instance learning for biopsy patches (a folder: the dataset returns each bag as a stack of patches and the collate function keeps bags apart in a list; the model embeds the patches of one bag with a ResNet-18 trunk, scores each patch with a small tanh MLP into (B, N, 1), transposes to (B, 1, N), takes softmax(dim=-1) and pools with a batched matrix product; the training loop feeds one bag at a time, a random subset of its patches, as a batch of one)
# why: correct: after transpose(1, 2) the last axis holds the N patches of the bag, so softmax(dim=-1) normalises the attention over the instances as attention MIL defines it (the length-1 axis is the one moved out of the way); every call sees one whole bag, so there is no padding to mask; this is additive (MLP) attention, with no dot-product scale to apply
# looks-like: ATT001, ATT003
# source: https://github.com/KianSadat418/slsm-patch-classification https://github.com/KianSadat418/slsm-patch-classification/commit/610a98b52c9a4850ae48f7745c69b99dfe9959c1 src/model_attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.models as models
from torch.utils.data import DataLoader

from bags import PatchBags, keep_bags_apart


class PatchAttentionMIL(nn.Module):
    def __init__(self, pretrained: bool = True, p_drop: float = 0.5, width: int = 512):
        super().__init__()
        trunk = models.resnet18(pretrained=pretrained)
        self.embed = nn.Sequential(*list(trunk.children())[:-1])
        self.width = width
        self.score = nn.Sequential(
            nn.Dropout(0.25), nn.Linear(width, 128), nn.Tanh(), nn.Dropout(0.25), nn.Linear(128, 1)
        )
        self.head = nn.Sequential(nn.Dropout(p_drop), nn.Linear(width, 2))

    def forward(self, bag: torch.Tensor):
        b, n, c, h, w = bag.shape
        feats = self.embed(bag.view(b * n, c, h, w)).view(b, n, self.width)
        weights = self.score(feats).transpose(1, 2)  # (b, 1, n)
        weights = F.softmax(weights, dim=-1)
        pooled = torch.bmm(weights, feats).squeeze(1)  # (b, width)
        return self.head(pooled), weights.squeeze(1)


def train_epoch(model: PatchAttentionMIL, data: PatchBags, opt, device: str = "cpu", max_patches: int = 64):
    model.train()
    loss_fn = nn.CrossEntropyLoss()
    for bags, labels, _ in DataLoader(data, batch_size=4, shuffle=True, collate_fn=keep_bags_apart):
        for bag, label in zip(bags, labels):
            pick = torch.randperm(bag.size(0))[:max_patches]
            logits, _ = model(bag[pick].unsqueeze(0).to(device))
            loss = loss_fn(logits, label.long().view(1).to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
