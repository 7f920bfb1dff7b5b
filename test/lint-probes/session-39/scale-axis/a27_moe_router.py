import torch
import torch.nn as nn


class Router(nn.Module):
    """Routing probabilities over experts (last axis) of tokens flattened to (B*T, E)."""

    def __init__(self, dim, n_experts, k=2):
        super().__init__()
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.k = k

    def forward(self, x):
        B, T, D = x.shape
        logits = self.gate(x.view(-1, D))  # (B*T, E)
        probs = logits.softmax(dim=1)
        topv, topi = probs.topk(self.k, dim=-1)
        return topv / topv.sum(-1, keepdim=True), topi
