import math
import torch
import torch.nn as nn


class AttnPool(nn.Module):
    """One learned query over the whole width: a single head, so sqrt(dim) is the right scale."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.query = nn.Parameter(torch.randn(dim))
        self.key = nn.Linear(dim, dim)

    def forward(self, x, mask):
        # x: (B, T, dim); mask: (B, T) bool, True = keep
        k = self.key(x)
        scores = k @ self.query / math.sqrt(self.dim)  # (B, T)
        scores = scores.masked_fill(~mask, -1e9)
        w = scores.softmax(dim=1)
        return (w.unsqueeze(-1) * x).sum(1)
