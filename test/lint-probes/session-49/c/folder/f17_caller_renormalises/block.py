import torch
import torch.nn as nn
from heads import head_weights, restrict


class RegionBlock(nn.Module):
    """Attention restricted to a region after the softmax, renormalised before the values."""

    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.scale = d ** -0.5

    def forward(self, x, region):
        # region: (B, N, N) 0/1, every row with at least its own token
        q, k, v = self.qkv(x).chunk(3, -1)
        w = head_weights(q, k, self.scale)
        w = restrict(w, region)
        w = w / w.sum(-1, keepdim=True)
        return w @ v
