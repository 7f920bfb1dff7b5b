import math
import torch
import torch.nn as nn


class FlatKeys(nn.Module):
    """Queries (B, T, d) over keys from a (h, w) map flattened into one key axis."""

    def __init__(self, c, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Conv2d(c, d, 1)
        self.v = nn.Conv2d(c, d, 1)

    def forward(self, tokens, fmap):
        B, C, H, W = fmap.shape
        q = self.q(tokens)  # (B, T, d)
        k = self.k(fmap).flatten(2)  # (B, d, H*W)
        v = self.v(fmap).flatten(2).transpose(1, 2)  # (B, H*W, d)
        a = torch.softmax(torch.bmm(q, k) / math.sqrt(q.size(-1)), dim=2)  # (B, T, H*W)
        return torch.bmm(a, v)
