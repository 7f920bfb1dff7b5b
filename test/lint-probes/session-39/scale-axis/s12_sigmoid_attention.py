import math
import torch
import torch.nn as nn


class SigmoidAttention(nn.Module):
    """Sigmoid attention with the -log(n) bias instead of a softmax."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)

    def forward(self, x):
        B, N, D = x.shape
        q = self.q(x).view(B, N, self.heads, self.dh).transpose(1, 2)
        k, v = self.kv(x).view(B, N, 2, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        logits = torch.einsum("bhid,bhjd->bhij", q, k) * self.dh ** -0.5
        w = torch.sigmoid(logits - math.log(N))
        return torch.einsum("bhij,bhjd->bhid", w, v).transpose(1, 2).reshape(B, N, D)
