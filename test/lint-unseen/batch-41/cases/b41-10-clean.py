# case: b41-10-clean
# modelled-on: rohithreddy024/Visual-Attention-Pytorch https://github.com/rohithreddy024/Visual-Attention-Pytorch/commit/c7c936fb85d9c0cd0f2b1fe60a8cff7c7bbbc851
# label: correct
# class: clean
# pattern: recurrent visual attention (glimpse network + RNN core + emission network): a ResNet context map is average-pooled to 2x2 = 4 regions, reshaped to (batch, 4, 2048); at the first step a 1x1 convolution scores the regions, later steps use additive (Bahdanau-style) attention tanh(W_v v + W_g h) projected to one score per region; the (batch, 4) scores go through softmax(dim=1) and the four probabilities are combined into the mean of the next glimpse location
# why: correct: the scores are (batch, regions), so dim=1 is the region axis and each image gets a distribution over its four quadrants; additive attention has no dot-product scale to apply; there is no padding and no mask, every image has exactly four regions
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/rohithreddy024/Visual-Attention-Pytorch https://github.com/rohithreddy024/Visual-Attention-Pytorch/commit/c7c936fb85d9c0cd0f2b1fe60a8cff7c7bbbc851 models.py
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Normal


class ContextNet(nn.Module):
    """ResNet features (batch, 2048, 6, 6) pooled to the four quadrants (batch, 2048, 2, 2)."""

    def __init__(self, backbone: nn.Module):
        super().__init__()
        self.backbone = backbone

    def forward(self, image):
        return F.avg_pool2d(self.backbone(image), kernel_size=3, stride=3)


class EmissionNet(nn.Module):
    def __init__(self, hidden: int, feat: int = 2048, att: int = 1024):
        super().__init__()
        self.first = nn.Conv2d(feat, 1, kernel_size=1, bias=False)
        self.w_v = nn.Linear(feat, att, bias=False)
        self.w_g = nn.Linear(hidden, att, bias=False)
        self.w_h = nn.Linear(att, 1, bias=False)

    def region_scores(self, regions, state):
        # regions: (batch, 4, feat), state: (batch, hidden) -> (batch, 4)
        mixed = torch.tanh(self.w_v(regions) + self.w_g(state).unsqueeze(1))
        return self.w_h(mixed).squeeze(-1)

    def forward(self, context, state, first_step: bool, spread: float):
        if first_step:
            scores = self.first(context).flatten(1)  # (batch, 4)
        else:
            regions = context.flatten(2).transpose(1, 2)  # (batch, 4, feat)
            scores = self.region_scores(regions, state)
        probs = F.softmax(scores, dim=1)
        # quadrants: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right
        horizontal = probs[:, 1] + probs[:, 3] - probs[:, 0] - probs[:, 2]
        vertical = probs[:, 0] + probs[:, 1] - probs[:, 2] - probs[:, 3]
        mean = torch.stack([horizontal, vertical], dim=1)
        dist = Normal(mean, scale=spread)
        location = torch.tanh(dist.sample().detach())
        return mean, location, dist
