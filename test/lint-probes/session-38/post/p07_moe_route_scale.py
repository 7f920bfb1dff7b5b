import torch
import torch.nn as nn
import torch.nn.functional as F


class Gate(nn.Module):
    def __init__(self, dim, n_experts, topk, route_scale=2.5):
        super().__init__()
        self.topk = topk
        self.route_scale = route_scale
        self.weight = nn.Parameter(torch.empty(n_experts, dim))

    def forward(self, x):
        scores = F.linear(x, self.weight).softmax(dim=-1)
        weights, indices = torch.topk(scores, self.topk, dim=-1)
        weights = weights * self.route_scale
        return weights, indices
