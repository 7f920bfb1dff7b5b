# case: softmax-scae-part-attention-spatial
# modelled-on: phanideepgampa/stacked-capsule-networks https://github.com/phanideepgampa/stacked-capsule-networks/pull/5
# label: correct
# pattern: the same part encoder: logits sliced out, unsqueeze(2) keeps a length-1 axis, view(*size[:3], -1) flattens the grid, and the softmax module (dim=-1) runs over the flattened grid cells
# why: each capsule's weights are a distribution over its h * w grid cells (the spatial attention the model describes); the length-1 axis from unsqueeze is only carried along for broadcasting (the merged PR normalised over the capsule axis instead; either is a real axis, the bug was the length-1 one)
# looks-like: ATT001
import torch
import torch.nn as nn
import torch.nn.functional as F


class PartCapsuleEncoder(nn.Module):
    def __init__(self, num_capsules: int = 24, num_feature_maps: int = 24, template_size: int = 11):
        super().__init__()
        self.num_capsules = num_capsules
        self.num_feature_maps = num_feature_maps
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 128, 3, stride=2),
            nn.ReLU(),
            nn.Conv2d(128, 128, 3, stride=2),
            nn.ReLU(),
            nn.Conv2d(128, 128, 3, stride=1),
            nn.ReLU(),
            nn.Conv2d(128, num_capsules * num_feature_maps, 1),
        )
        self.templates = nn.ParameterList(
            [nn.Parameter(torch.randn(1, template_size, template_size)) for _ in range(num_capsules)]
        )
        self.soft_max = nn.Softmax(dim=-1)
        self.eps = 1e-6

    def forward(self, x):
        # x: (B, 1, 28, 28)
        feats = self.backbone(x)
        # (B, M, F, h, w)
        feats = feats.view(-1, self.num_capsules, self.num_feature_maps, *feats.size()[2:])
        # the last feature map of each capsule is its attention logit: (B, M, 1, h, w)
        logits = feats[:, :, -1, :, :].unsqueeze(2)
        # (B, M, 1, h * w) -> softmax -> back to (B, M, 1, h, w)
        attention = self.soft_max(logits.view(*logits.size()[:3], -1)).view_as(logits)
        params = feats[:, :, :-1, :, :]
        # attention-weighted sum over the grid: (B, M, F - 1)
        pooled = (params * attention).sum(dim=-1).sum(dim=-1)
        pose = F.relu(pooled[:, :, :6])
        presence = torch.sigmoid(pooled[:, :, 6:7])
        special = F.relu(pooled[:, :, 7:])
        return pose, presence, special

    def template_batch(self, batch: int):
        # (B, M, 11, 11)
        return torch.cat([t.unsqueeze(0).expand(batch, -1, -1, -1) for t in self.templates], dim=1)
