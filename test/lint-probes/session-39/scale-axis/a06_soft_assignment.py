import torch
import torch.nn as nn


class SoftCluster(nn.Module):
    """Token merging by soft assignment to K centroids: softmax over the centroids (axis 1)."""

    def __init__(self, dim, k, tau=0.1):
        super().__init__()
        self.centroids = nn.Parameter(torch.randn(k, dim))
        self.tau = tau

    def forward(self, x):
        # x: (B, N, dim)
        logits = torch.einsum("kd,bnd->bkn", self.centroids, x) / self.tau  # (B, K, N)
        assign = logits.softmax(dim=1)
        merged = torch.einsum("bkn,bnd->bkd", assign, x) / (assign.sum(-1, keepdim=True) + 1e-6)
        return merged
