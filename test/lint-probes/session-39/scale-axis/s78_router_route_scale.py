import torch
import torch.nn as nn
import torch.nn.functional as F


class Gate(nn.Module):
    """MoE gate: softmax over experts, top-k weights times a routed scaling factor (not attention)."""

    def __init__(self, dim, n_experts, topk, route_scale=2.5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_experts, dim) * dim ** -0.5)
        self.topk = topk
        self.route_scale = route_scale

    def forward(self, x):
        scores = F.linear(x, self.weight).softmax(dim=-1)  # (N, E)
        weights, idx = torch.topk(scores, self.topk, dim=-1)
        weights = weights * self.route_scale
        return weights, idx
