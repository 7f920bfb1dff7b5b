import torch
import torch.nn as nn
import torch.nn.functional as F
from ops import restrict_and_renormalise


class NeighbourAttention(nn.Module):
    """Dense scores, then restricted to a k-NN graph of the points."""

    def __init__(self, d, k=16):
        super().__init__()
        self.k = k
        self.qk = nn.Linear(d, 2 * d)

    def forward(self, x, pos):
        q, key = self.qk(x).chunk(2, -1)
        s = q @ key.transpose(-1, -2) / x.shape[-1] ** 0.5  # (B, N, N)
        w = F.softmax(s, dim=-1)
        d2 = torch.cdist(pos, pos)
        knn = d2 <= d2.topk(self.k, dim=-1, largest=False).values[..., -1:]
        w = restrict_and_renormalise(w, knn)
        return w @ x
