import torch
import torch.nn as nn


class SetTransformerPMA(nn.Module):
    """Pooling by attention over the set elements; the batch is folded, `B` names the number of sets."""

    def __init__(self, dim, k_seeds):
        super().__init__()
        self.S = nn.Parameter(torch.randn(1, k_seeds, dim))
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.dim = dim

    def forward(self, X):
        B, N, D = X.shape  # B sets of N elements
        q = self.S.repeat(B, 1, 1)  # (B, k, D)
        A = torch.softmax(q.bmm(self.k(X).transpose(1, 2)) / D ** 0.5, 2)  # (B, k, N)
        return A.bmm(self.v(X))
