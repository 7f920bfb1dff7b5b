import torch
import torch.nn as nn


class SetPool(nn.Module):
    """Attention pooling that keeps the magnitude of a sum: the weights times the set size."""

    def __init__(self, dim):
        super().__init__()
        self.q = nn.Parameter(torch.randn(1, 1, dim))
        self.k = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        s = (self.q.expand(B, -1, -1) @ self.k(x).transpose(1, 2)) * C ** -0.5  # (B, 1, N)
        w = s.softmax(-1) * N
        return (w @ x).squeeze(1)
