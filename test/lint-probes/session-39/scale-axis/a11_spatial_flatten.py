import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialSoftmaxPool(nn.Module):
    """One attention map over all H*W positions of a feature map."""

    def __init__(self, c):
        super().__init__()
        self.score = nn.Conv2d(c, 1, kernel_size=1)

    def forward(self, x):
        B, C, H, W = x.shape
        a = F.softmax(self.score(x).view(B, -1), dim=-1).view(B, 1, H, W)
        return (a * x).sum(dim=(2, 3))  # (B, C)
