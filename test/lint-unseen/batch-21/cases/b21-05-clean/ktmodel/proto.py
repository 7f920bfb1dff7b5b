import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PrototypeMixer(nn.Module):
    """a_i = softmax(c_i . P^T / sqrt(d)); theta_i = sum_j a_ij * Theta_j."""

    def __init__(self, context_dim, num_prototypes, num_params):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(num_prototypes, context_dim) * 0.02)
        self.parameter_bank = nn.Parameter(torch.randn(num_prototypes, num_params) * 0.02)
        self.attention_scale = math.sqrt(context_dim)

    def forward(self, context):
        scores = torch.matmul(context, self.prototypes.T) / self.attention_scale
        weights = F.softmax(scores, dim=-1)
        return weights @ self.parameter_bank, weights
