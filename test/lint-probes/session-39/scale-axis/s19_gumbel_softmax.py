import torch
import torch.nn as nn


class GumbelRouter(nn.Module):
    """Hard attention over keys sampled with Gumbel noise and a temperature tau."""

    def __init__(self, dim, tau=0.5):
        super().__init__()
        self.tau = tau
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.d = dim

    def forward(self, x, mem):
        # x: (B, T, d); mem: (B, S, d)
        logits = self.q(x) @ self.k(mem).transpose(1, 2) / self.d ** 0.5  # (B, T, S)
        u = torch.rand_like(logits).clamp_(1e-9, 1 - 1e-9)
        g = -torch.log(-torch.log(u))
        y = torch.softmax((logits + g) / self.tau, dim=-1)
        return y @ mem
