import torch
import torch.nn as nn
import torch.nn.functional as F


class DeformWeights(nn.Module):
    """Deformable attention: per query and head, weights over levels * points from a linear layer."""

    def __init__(self, d_model, n_heads, n_levels, n_points):
        super().__init__()
        self.h, self.l, self.p = n_heads, n_levels, n_points
        self.attention_weights = nn.Linear(d_model, n_heads * n_levels * n_points)

    def forward(self, query):
        N, Lq, _ = query.shape
        w = self.attention_weights(query).view(N, Lq, self.h, self.l * self.p)
        w = F.softmax(w, -1).view(N, Lq, self.h, self.l, self.p)
        return w
