import torch
import torch.nn as nn


class SetPool(nn.Module):
    """Attention pooling that keeps a sum's magnitude: weights times the set size (a sum, not a mean)."""

    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        # x: (B, N, dim)
        N = x.shape[1]
        w = torch.softmax(self.score(x).squeeze(-1), dim=-1)  # (B, N)
        return torch.einsum("bn,bnd->bd", w * N, x)
